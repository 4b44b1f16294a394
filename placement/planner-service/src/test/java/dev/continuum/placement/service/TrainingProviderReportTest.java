package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.planner.PartitionReporter;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The training provider's own reporter ({@code PartitionReporter}, with a client-credentials token from the real
 * Keycloak) tells this planner what its local backend offers: the site appears with its GPU slots, an unchanged
 * inventory is not sent again, and a provider restarted with fewer slots replaces the site's shape.
 */
@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class TrainingProviderReportTest {

    @TestHTTPResource("/")
    URI planner;

    @Test
    void shouldShowATrainingBackendsPartitionsOnceItsProviderReportsThemAndTheirNewShapeAfterARestart() {
        String site = "local-" + UUID.randomUUID().toString().substring(0, 6);
        // the realm's service account for reporting to the planner, as the provider's main signs its reports
        ServiceAccountToken account = new ServiceAccountToken(new TokenClient(KeycloakServer.shared().issuer()),
                ClientCredentials.confidential("continuum-planner-reporter", "continuum-planner-reporter-local-secret"),
                Clock.systemUTC());
        PlannerClient client = new PlannerClient(planner, account::current);
        PartitionReporter reporter = new PartitionReporter(new LocalBackend(config(site, 2)), client);

        PartitionReporter.Outcome first = reporter.check();

        assertThat(first.status()).as(first.detail()).isEqualTo(200);
        JsonPath sites = given().auth().oauth2(KeycloakResource.token("scientist")).get("/inventory")
                .then().statusCode(200).extract().jsonPath();
        assertThat(sites.getInt("sites.find { it.name == '" + site + "' }.gpus")).isEqualTo(2);
        assertThat(sites.getList("sites.find { it.name == '" + site + "' }.partitions.name", String.class))
                .containsExactly("local");
        assertThat(reporter.check().sent()).as("an unchanged inventory is not sent again").isFalse();

        PartitionReporter restarted = new PartitionReporter(new LocalBackend(config(site, 1)), client);
        assertThat(restarted.check().status()).isEqualTo(200);
        given().auth().oauth2(KeycloakResource.token("scientist")).get("/inventory").then().statusCode(200)
                .body("sites.find { it.name == '" + site + "' }.gpus", equalTo(1));

        PartitionReporter forged = new PartitionReporter(new LocalBackend(config(site, 3)),
                new PlannerClient(planner, () -> "not-a-token"));
        PartitionReporter.Outcome refused = forged.check();
        assertThat(refused.status()).as("the planner refuses a report without a valid token").isEqualTo(401);
        assertThat(forged.check().sent()).as("a refused report is tried again at the next check").isTrue();
    }

    private static LocalBackendConfig config(String site, int slots) {
        return new LocalBackendConfig(site, "local", List.of("0"), Optional.empty(), 4, 8192).withSlots(slots);
    }
}
