package dev.continuum.auth.keycloak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where tests and `up` find Keycloak's zip: not only in ~/.m2 (a user's settings.xml may put the repository elsewhere). */
class KeycloakDistributionTest {

    @TempDir
    Path tmp;
    private String before;

    @BeforeEach
    void remember() {
        before = System.getProperty(KeycloakServer.ZIP_PROPERTY);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(KeycloakServer.ZIP_PROPERTY);
        } else {
            System.setProperty(KeycloakServer.ZIP_PROPERTY, before);
        }
    }

    @Test
    void shouldUseTheZipTheBuildNamesWhateverTheLocalRepository() throws IOException {
        Path zip = Files.createFile(tmp.resolve("elsewhere.zip"));
        System.setProperty(KeycloakServer.ZIP_PROPERTY, zip.toString());

        assertThat(KeycloakServer.distributionZip()).contains(zip);
    }

    @Test
    void shouldLookInARepositoryFolderWhenTheNameIsAFolder() throws IOException {
        Path repo = tmp.resolve("repo");
        Path zip = repo.resolve("org/keycloak/keycloak-quarkus-dist/" + KeycloakServer.VERSION
                + "/keycloak-quarkus-dist-" + KeycloakServer.VERSION + ".zip");
        Files.createDirectories(zip.getParent());
        Files.createFile(zip);
        System.setProperty(KeycloakServer.ZIP_PROPERTY, repo.toString());

        assertThat(KeycloakServer.distributionZip()).contains(zip);
    }

    @Test
    void shouldIgnoreAPropertyMavenLeftUnresolved() {
        System.setProperty(KeycloakServer.ZIP_PROPERTY, "${org.keycloak:keycloak-quarkus-dist:zip}");

        assertThat(KeycloakServer.zipCandidates()).noneMatch(p -> p.toString().contains("${"));
    }

    @Test
    void shouldBeGivenItsZipByTheBuildInThisModulesTests() {
        assertThat(before).as("the build passes " + KeycloakServer.ZIP_PROPERTY).isNotBlank();
        assertThat(Path.of(before)).isRegularFile().hasFileName("keycloak-quarkus-dist-" + KeycloakServer.VERSION + ".zip");
    }

    @Test
    void shouldGiveEachStartItsOwnImportFolderSoCheckoutsDoNotImportEachOthersRealm() throws IOException {
        Path distribution = tmp.resolve("keycloak-" + KeycloakServer.VERSION);
        Files.createDirectories(distribution.resolve("bin"));
        Files.createDirectories(distribution.resolve("lib"));
        Files.writeString(distribution.resolve("bin/kc.sh"), "#!/bin/sh\n");
        Files.createDirectories(distribution.resolve("data/import"));
        Files.writeString(distribution.resolve("data/import/stale-realm.json"), "{}");

        Path first = KeycloakServer.instanceHome(distribution, 8181);
        Path second = KeycloakServer.instanceHome(distribution, 8182);
        Files.createDirectories(first.resolve("data/import"));
        Files.writeString(first.resolve("data/import/continuum-realm.json"), "{\"realm\":\"first\"}");

        assertThat(first).isNotEqualTo(second);
        assertThat(second.resolve("data/import/continuum-realm.json")).doesNotExist();
        assertThat(first.resolve("data/import/stale-realm.json")).doesNotExist();
        assertThat(Files.isSymbolicLink(first.resolve("bin/kc.sh"))).as("kc.sh is copied: Keycloak takes its home from its real path").isFalse();
        assertThat(first.resolve("lib")).isSymbolicLink();

        KeycloakServer.instanceHome(distribution, 8181);
        assertThat(first.resolve("data/import/continuum-realm.json")).as("a new start on the port begins clean").doesNotExist();
        assertThat(distribution.resolve("lib")).isDirectory();
    }
}
