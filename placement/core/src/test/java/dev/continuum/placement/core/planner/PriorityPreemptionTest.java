package dev.continuum.placement.core.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code priority} order the training provider uses: a more important job takes the GPUs. */
class PriorityPreemptionTest {
    private static final long NOW = 1_700_000_000_000L;

    private static PlacementRequest job(String id, int priority) {
        return new PlacementRequest(id, PlacementRequest.Kind.TRAINING, "", 8, 8, Demand.wholeGpus(8), List.of(), 0, 0,
                priority, "", "", 3600, true);
    }

    @Test
    void aHigherPriorityJobPreemptsALowerOneWhichStartsAgainWhenItEnds() {
        OnlinePlanner planner = new OnlinePlanner(PlannerConfig.DEFAULT.withPolicy("priority"));
        planner.update(new World().training("dc", 1, 8, "A100").inventory(), NOW);
        planner.place(job("low", 0), NOW);

        List<PlacementDecision> later = planner.place(job("high", 5), NOW + 1000).decisions();
        assertThat(later).extracting(d -> d.getClass().getSimpleName() + " " + d.requestId())
                .containsExactly("Preempted low", "Placed high");

        List<PlacementDecision> after = planner.observe(new Observation.JobCompleted("high", "dc", "", 0, NOW + 60_000));
        assertThat(after).extracting(d -> d.getClass().getSimpleName() + " " + d.requestId()).containsExactly("Placed low");
    }

    @Test
    void equalPrioritiesWaitInArrivalOrder() {
        OnlinePlanner planner = new OnlinePlanner(PlannerConfig.DEFAULT.withPolicy("priority"));
        planner.update(new World().training("dc", 1, 8, "A100").inventory(), NOW);
        planner.place(job("first", 3), NOW);

        assertThat(planner.place(job("second", 3), NOW + 1000).decisions())
                .extracting(d -> d.getClass().getSimpleName() + " " + d.requestId()).containsExactly("Queued second");
    }
}
