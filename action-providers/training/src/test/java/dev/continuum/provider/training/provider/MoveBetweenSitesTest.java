package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A training provider running jobs at three sites (each a local backend with its own directory, standing for a
 * datacenter) moves jobs between them: the checkpoint is carried by the real transfer provider, called over the
 * Action Provider API with a service-account token from the real Keycloak, which the transfer provider checks.
 * Site dc-c's endpoint does not let the carrier write, so a move there fails as a broken transfer does.
 */
class MoveBetweenSitesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(120);
    @TempDir
    static Path dir;
    static SitesFixture sites;

    @BeforeAll
    static void start() throws Exception {
        sites = new SitesFixture(dir, SitesFixture.sites("dc-a", local("dc-a"), "dc-b", local("dc-b"), "dc-c", local("dc-c")),
                Set.of("dc-c"), Optional.of(KeycloakServer.shared()));
    }

    static LocalBackend local(String site) {
        return new LocalBackend(LocalBackendConfig.detect(2).withSlots(2).withSite(site));
    }

    @AfterAll
    static void stop() throws Exception {
        sites.close();
    }

    @Test
    void aJobMovedToAnotherSiteResumesThereFromTheCheckpointTheTransferProviderCarried() throws Exception {
        String id = sites.start(SitesFixture.demo(300));
        sites.await(id, WAIT, st -> st.path("details").path("progress").path("step").asInt() >= 25);

        assertThat(sites.post(id, "migrate", JSON.createObjectNode().put("site", "dc-b"), "alice", "continuum-user")
                .statusCode()).isEqualTo(403);
        HttpResponse<String> unknown = sites.migrate(id, "dc-z");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unknown.body()).path("errors").findValuesAsText("pointer")).containsExactly("/site");
        assertThat(unknown.body()).contains("unknown site dc-z", "dc-a, dc-b, dc-c");
        HttpResponse<String> moved = sites.migrate(id, "dc-b");
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(202);
        assertThat(JSON.readTree(moved.body()).path("state").asText()).isEqualTo("migrating");

        JsonNode d = sites.await(id, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
        assertThat(d.path("placement").path("site").asText()).isEqualTo("dc-b");
        JsonNode move = d.path("history").get(0);
        assertThat(move.path("kind").asText()).isEqualTo("migrated");
        assertThat(move.path("from").path("site").asText()).isEqualTo("dc-a");
        assertThat(move.path("to").path("site").asText()).isEqualTo("dc-b");
        JsonNode carried = move.path("carried");
        assertThat(carried.has("failure")).as(move.toString()).isFalse();

        // the checkpoint at dc-b is byte for byte the one dc-a wrote, and the history says so
        String name = carried.path("checkpoint").asText();
        Path source = dir.resolve("dc-a/checkpoints").resolve(id).resolve(name);
        Path destination = dir.resolve("dc-b/checkpoints").resolve(id).resolve(name);
        assertThat(carried.path("sha256").asText()).isEqualTo(SitesFixture.sha256(source))
                .isEqualTo(SitesFixture.sha256(destination));
        assertThat(carried.path("bytes").asLong()).isEqualTo(Files.size(source));
        assertThat(carried.path("transfer_action").asText()).isNotBlank();

        // the second attempt ran at dc-b from the carried checkpoint: the next step, the loss going on
        List<Progress> before = sites.progress("dc-a", id, 1);
        List<Progress> after = sites.progress("dc-b", id, 2);
        long step = Long.parseLong(name.substring("ckpt-".length()));
        assertThat(before.getLast().step()).isEqualTo(step);
        assertThat(after.getFirst().step()).isEqualTo(step + 1);
        assertThat(after.getLast().step()).isEqualTo(300);
        assertThat(after.getFirst().loss().orElseThrow()).isLessThanOrEqualTo(before.getLast().loss().orElseThrow())
                .isLessThan(before.getFirst().loss().orElseThrow() * 0.9);
        assertThat(Path.of(d.path("checkpoints").path("location").asText())).startsWith(dir.resolve("dc-b"));
        assertThat(Path.of(d.path("output_location").asText())).startsWith(dir.resolve("dc-b"));
        assertThat(Path.of(d.path("output_location").asText()).resolve("model.onnx")).exists();
    }

    @Test
    void aCheckpointThatCannotBeCarriedLeavesTheJobResumingAtItsSiteAndSaysWhy() throws Exception {
        String id = sites.start(SitesFixture.demo(300));
        sites.await(id, WAIT, st -> st.path("details").path("progress").path("step").asInt() >= 25);

        HttpResponse<String> moved = sites.migrate(id, "dc-c");
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(202);
        JsonNode failed = sites.await(id, WAIT, st -> st.path("details").path("message").asText().contains("failed"));
        assertThat(failed.path("details").path("message").asText())
                .contains("moving to site dc-c failed", "PermissionDenied", "stays at site dc-a", "resumes there from ckpt-");

        JsonNode d = sites.await(id, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
        assertThat(d.path("placement").path("site").asText()).isEqualTo("dc-a");
        JsonNode carried = d.path("history").get(0).path("carried");
        assertThat(carried.path("failure").asText()).contains("PermissionDenied");
        assertThat(dir.resolve("dc-c/checkpoints").resolve(id)).doesNotExist();
        long step = Long.parseLong(carried.path("checkpoint").asText().substring("ckpt-".length()));
        assertThat(sites.progress("dc-a", id, 1).getLast().step()).isEqualTo(step);
        assertThat(sites.progress("dc-a", id, 2).getFirst().step()).isEqualTo(step + 1);
        assertThat(d.path("progress").path("step").asInt()).isEqualTo(300);
    }
}
