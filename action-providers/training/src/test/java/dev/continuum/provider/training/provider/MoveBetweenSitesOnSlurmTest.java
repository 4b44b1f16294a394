package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import dev.continuum.slurm.testing.SlurmHarness;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A job started at a local site moves to a site that is a real Slurm (SlurmHarness, partition gpu-b): its checkpoint
 * is carried by the real transfer provider (Keycloak tokens, as in {@link MoveBetweenSitesTest}) and the next attempt
 * is a Slurm batch job that resumes from it.
 */
class MoveBetweenSitesOnSlurmTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(180);

    @Test
    void aJobMovedFromALocalSiteToSlurmResumesThereFromTheCarriedCheckpoint() throws Exception {
        SlurmHarness slurm = SlurmHarness.shared();
        // below the harness's jobs directory: the Slurm jobs run as its user and must read and write there
        Path dir = Files.createDirectories(slurm.jobsDir().resolve("sites-" + UUID.randomUUID()));
        SlurmBackend hpc = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                slurm.dir().resolve("etc/token"), "hpc-b").withSlurmConf(slurm.conf()), Clock.systemUTC());
        try (SitesFixture sites = new SitesFixture(dir, SitesFixture.sites("dc-a", MoveBetweenSitesTest.local("dc-a"),
                "hpc-b", hpc), Set.of(), Optional.of(KeycloakServer.shared()))) {
            String id = sites.start(SitesFixture.demo(300));
            sites.await(id, WAIT, st -> st.path("details").path("progress").path("step").asInt() >= 25);

            HttpResponse<String> moved = sites.post(id, "migrate", JSON.createObjectNode().put("site", "hpc-b")
                    .put("partition", SlurmHarness.PARTITION_B), "ops", "continuum-admin");
            assertThat(moved.statusCode()).as(moved.body()).isEqualTo(202);

            JsonNode d = sites.await(id, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
            assertThat(d.path("backend").asText()).isEqualTo("slurm");
            assertThat(d.path("placement").path("site").asText()).isEqualTo("hpc-b");
            assertThat(d.path("placement").path("partition").asText()).isEqualTo(SlurmHarness.PARTITION_B);
            JsonNode carried = d.path("history").get(0).path("carried");
            String name = carried.path("checkpoint").asText();
            assertThat(carried.path("sha256").asText())
                    .isEqualTo(SitesFixture.sha256(dir.resolve("dc-a/checkpoints").resolve(id).resolve(name)))
                    .isEqualTo(SitesFixture.sha256(dir.resolve("hpc-b/checkpoints").resolve(id).resolve(name)));
            long step = Long.parseLong(name.substring("ckpt-".length()));
            List<Progress> after = sites.progress("hpc-b", id, 2);
            assertThat(sites.progress("dc-a", id, 1).getLast().step()).isEqualTo(step);
            assertThat(after.getFirst().step()).isEqualTo(step + 1);
            assertThat(after.getLast().step()).isEqualTo(300);
        }
    }
}
