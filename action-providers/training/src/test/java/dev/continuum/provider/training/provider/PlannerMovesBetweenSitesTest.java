package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
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
 * Nobody asks here: under {@code priority+move} the planner itself moves a running job off a contended site to one
 * with free GPUs, through the same path as an operator's migrate (checkpoint, carry by the real transfer provider,
 * resume). Site dc-a has the only a100 GPUs; dc-b has GPUs of no named model.
 */
class PlannerMovesBetweenSitesTest {
    private static final Duration WAIT = Duration.ofSeconds(180);
    /** A second's restart, two seconds' residence: the test's jobs are short, the rule the same. */
    private static final MovePolicy.Costs COSTS = new MovePolicy.Costs(100e6, 1, 2, 2);
    @TempDir
    static Path dir;
    static SitesFixture sites;

    @BeforeAll
    static void start() throws Exception {
        sites = new SitesFixture(dir, SitesFixture.sites("dc-a", local("dc-a", Optional.of("a100")),
                "dc-b", local("dc-b", Optional.empty())), Set.of(), Optional.empty(), "priority+move", COSTS);
    }

    static LocalBackend local(String site, Optional<String> model) {
        LocalBackendConfig any = LocalBackendConfig.detect(2).withSlots(2).withSite(site);
        return new LocalBackend(new LocalBackendConfig(site, any.partition(), any.gpuSlots(), model, any.cpus(),
                any.memoryMb()));
    }

    @AfterAll
    static void stop() throws Exception {
        sites.close();
    }

    @Test
    void aRunningJobIsMovedByThePlannerOffASiteWhereAJobNeedingItsGpusWaitsAndResumesFromItsCheckpoint()
            throws Exception {
        String low = sites.start(SitesFixture.demo(1500).put("gpus_max", 2));
        sites.await(low, WAIT, st -> st.path("details").path("progress").path("step").asInt() >= 25);
        assertThat(sites.await(low, WAIT, st -> true).path("details").path("placement").path("site").asText())
                .isEqualTo("dc-a");

        // the same priority, so nothing is preempted; it needs an a100, which only dc-a has
        String a100 = sites.start(SitesFixture.demo(200).put("gpus_max", 2).put("gpu_model", "a100"));

        JsonNode moving = sites.await(low, WAIT, st -> st.path("details").path("history").size() > 0);
        JsonNode move = moving.path("details").path("history").get(0);
        assertThat(move.path("kind").asText()).isEqualTo("migrated");
        assertThat(move.path("reason").asText()).startsWith("planner: ")
                .contains(a100 + " waits in dc-a/local for 2 GPUs", "dc-b/local can run this job now");
        assertThat(move.path("from").path("site").asText()).isEqualTo("dc-a");

        JsonNode d = sites.await(low, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
        assertThat(d.path("placement").path("site").asText()).isEqualTo("dc-b");
        assertThat(d.path("history")).hasSize(1);
        move = d.path("history").get(0);
        assertThat(move.path("to").path("site").asText()).isEqualTo("dc-b");
        JsonNode carried = move.path("carried");
        assertThat(carried.has("failure")).as(move.toString()).isFalse();
        assertThat(carried.path("sha256").asText()).isEqualTo(SitesFixture.sha256(
                dir.resolve("dc-b/checkpoints").resolve(low).resolve(carried.path("checkpoint").asText())));

        // checkpointed at dc-a on the planner's word, resumed at dc-b at the next step, finished there
        long step = Long.parseLong(carried.path("checkpoint").asText().substring("ckpt-".length()));
        List<Progress> before = sites.progress("dc-a", low, 1);
        List<Progress> after = sites.progress("dc-b", low, 2);
        assertThat(before.getLast().step()).isEqualTo(step);
        assertThat(move.path("step").asLong()).isLessThanOrEqualTo(step);
        assertThat(after.getFirst().step()).isEqualTo(step + 1);
        assertThat(after.getLast().step()).isEqualTo(1500);

        // the a100 job ran at dc-a in the GPUs the move freed, without being moved itself
        JsonNode other = sites.await(a100, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
        assertThat(other.path("placement").path("site").asText()).isEqualTo("dc-a");
        assertThat(other.path("history")).isEmpty();
        assertThat(sites.progress("dc-a", a100, 1).getLast().step()).isEqualTo(200);
    }

    @Test
    void aJobThePlannerPreemptedForAHigherPriorityOneIsMovedWhereItCanRunInsteadOfWaiting() throws Exception {
        String low = sites.start(SitesFixture.demo(1500).put("gpus_max", 2));
        sites.await(low, WAIT, st -> st.path("details").path("progress").path("step").asInt() >= 25);

        String high = sites.start(SitesFixture.demo(200).put("gpus_max", 2).put("gpu_model", "a100").put("priority", 10));

        JsonNode d = sites.await(low, WAIT, st -> st.path("status").asText().equals("SUCCEEDED")).path("details");
        JsonNode history = d.path("history");
        assertThat(history).as(history.toString()).hasSize(2);
        assertThat(history.get(0).path("kind").asText()).isEqualTo("preempted");
        assertThat(history.get(0).path("reason").asText()).doesNotStartWith("planner: "); // the partition's own policy
        JsonNode move = history.get(1);
        assertThat(move.path("kind").asText()).as(history.toString()).isEqualTo("migrated");
        assertThat(move.path("reason").asText()).startsWith("planner: dc-a/local has no 2 free GPUs")
                .contains("dc-b/local can run it now");
        assertThat(move.path("from").path("site").asText()).isEqualTo("dc-a");
        assertThat(move.path("to").path("site").asText()).isEqualTo("dc-b");
        assertThat(move.path("carried").has("failure")).as(move.toString()).isFalse();
        assertThat(d.path("placement").path("site").asText()).isEqualTo("dc-b");

        long step = Long.parseLong(move.path("carried").path("checkpoint").asText().substring("ckpt-".length()));
        assertThat(sites.progress("dc-a", low, 1).getLast().step()).isEqualTo(step);
        assertThat(sites.progress("dc-b", low, 2).getFirst().step()).isEqualTo(step + 1);
        assertThat(sites.progress("dc-b", low, 2).getLast().step()).isEqualTo(1500);
        assertThat(sites.await(high, WAIT, st -> st.path("status").asText().equals("SUCCEEDED"))
                .path("details").path("placement").path("site").asText()).isEqualTo("dc-a");
    }
}
