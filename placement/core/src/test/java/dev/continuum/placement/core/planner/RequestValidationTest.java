package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.NOW;
import static dev.continuum.placement.core.planner.World.classify;
import static dev.continuum.placement.core.planner.World.planner;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Partition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class RequestValidationTest {
    private final OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet", "bert")
            .pool("dc-pool", 2, 0).link("gw-1", "dc-pool", 1, 10)
            .training("dc-a100", 2, 8, "A100", new Partition("vision", 8))
            .status("dc-pool", SiteStatus.inference(0, Set.of("resnet"))).inventory());

    private static void assertRefused(Executable call, String field, String reasonPart) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(InvalidRequestException.class, e -> {
            org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo(field);
            org.assertj.core.api.Assertions.assertThat(e.reason()).contains(reasonPart);
        });
    }

    @Test
    void shouldNameTheModelWhenTheInventoryDoesNotKnowIt() {
        PlacementRequest r = PlacementRequest.inference("r1", "llama", Demand.wholeGpus(1), List.of(), 0);

        assertRefused(() -> planner.place(r, NOW), "model", "unknown model 'llama'; the inventory has [bert, resnet]");
    }

    @Test
    void shouldNameTheGpuCountWhenNoNodeHasThatManyGpus() {
        PlacementRequest r = PlacementRequest.inference("r1", "resnet", Demand.wholeGpus(8), List.of(), 0);

        assertRefused(() -> planner.place(r, NOW), "minGpus", "asks for 8 GPUs, the largest node serving inference has 4");
    }

    @Test
    void shouldNameTheGpuCountWhenNoTrainingClusterHasThatManyGpus() {
        PlacementRequest r = PlacementRequest.training("t1", Demand.wholeGpus(32), "", 3600);

        assertRefused(() -> planner.place(r, NOW), "minGpus", "the largest training cluster (dc-a100) has 16");
    }

    @Test
    void shouldNameTheGpuCountWhenThePartitionsQuotaIsSmaller() {
        PlacementRequest r = PlacementRequest.training("t1", Demand.wholeGpus(16), "vision", 3600);

        assertRefused(() -> planner.place(r, NOW), "minGpus", "partition vision has a quota of 8");
    }

    @Test
    void shouldNameThePartitionWhenItIsUnknown() {
        PlacementRequest r = PlacementRequest.training("t1", Demand.wholeGpus(1), "nlp", 3600);

        assertRefused(() -> planner.place(r, NOW), "partition", "unknown partition 'nlp'; the inventory has [vision]");
    }

    @Test
    void shouldNameTheGpuModelsWhenTheInventoryHasNoSuchGpu() {
        Demand h200 = new Demand(1, 1000, Set.of("H200"), 0, 0);

        assertRefused(() -> planner.place(PlacementRequest.training("t1", h200, "", 60), NOW), "demand.gpuModels",
                "unknown GPU model 'H200'; sites serving training have [A100]");
    }

    @Test
    void shouldNameTheDataSizeWhenItIsNegative() {
        assertRefused(() -> classify("r1", "ep-gw-1", -5, 0), "data.sizeBytes", "must not be negative, was -5");
    }

    @Test
    void shouldNameTheSloWhenItIsNegative() {
        assertRefused(() -> classify("r1", "ep-gw-1", 5, -1), "latencySloMillis", "must not be negative");
    }

    @Test
    void shouldNameTheEndpointWhenTheInventoryDoesNotKnowIt() {
        assertRefused(() -> planner.place(classify("r1", "ep-nowhere", 5, 0), NOW), "data[0].endpointId",
                "unknown endpoint 'ep-nowhere'");
    }

    @Test
    void shouldNameTheDeadlineWhenItHasPassed() {
        PlacementRequest r = PlacementRequest.training("t1", Demand.wholeGpus(1), "", 60).withDeadline(NOW / 1000 - 1);

        assertRefused(() -> planner.place(r, NOW), "deadlineEpochSeconds", "is in the past");
    }

    @Test
    void shouldJudgeARequestByTheInventoryAsItIsNowWhenSitesChange() {
        PlacementRequest sixteen = PlacementRequest.training("t1", Demand.wholeGpus(24), "", 3600);
        PlacementRequest llama = PlacementRequest.inference("r1", "llama", Demand.wholeGpus(1), List.of(), 0);
        assertRefused(() -> planner.place(sixteen, NOW), "minGpus", "the largest training cluster (dc-a100) has 16");

        // the training cluster grows and the pool loads another model, with the other sites' reports unchanged
        Inventory grown = new World().gateway("gw-1", "T4", 0, "resnet", "bert")
                .pool("dc-pool", 2, 0).link("gw-1", "dc-pool", 1, 10)
                .training("dc-a100", 4, 8, "A100", new Partition("vision", 8))
                .status("dc-pool", SiteStatus.inference(0, Set.of("resnet", "llama"))).inventory();
        planner.update(grown, NOW + 1);

        org.assertj.core.api.Assertions.assertThat(planner.place(sixteen, NOW + 2).decision())
                .isInstanceOf(PlacementDecision.Placed.class);
        org.assertj.core.api.Assertions.assertThat(planner.place(llama, NOW + 3).decision())
                .isInstanceOfSatisfying(PlacementDecision.Placed.class, p -> org.assertj.core.api.Assertions
                        .assertThat(p.chosen().site()).isEqualTo("dc-pool"));
    }
}
