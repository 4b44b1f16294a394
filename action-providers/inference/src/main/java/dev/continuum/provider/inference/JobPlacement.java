package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.placement.api.client.PlannerClient;
import java.util.List;
import java.util.Optional;

/**
 * Where an inference job runs — the placement planner's decision, either asked of the planner service (which logs it
 * in PostgreSQL: {@link PlannerServicePlacement}) or, when the provider runs without one, of the planner's core in
 * process ({@link GatewayPlanner}). Both decide with the same {@code OnlinePlanner} code, each from its own view of the
 * sites: the planner service from the gateways' and the pool's heartbeats, the core in process from the provider's
 * fleet; so a placement is asked with the job alone.
 */
public interface JobPlacement {

    /** One input: where it lies ({@code endpointId}: a gateway's device id, {@code datacenter}, ...) and how big it is. */
    record Data(String endpointId, String path, long sizeBytes) {}

    /**
     * What the job needs: the model reference, GPU memory (0 = none), a GPU at all, one pinned device (null = any),
     * its inputs, a latency SLO (0 = none) and the run it belongs to (null when the caller is not a flow).
     */
    record Job(String id, String runId, String model, long minGpuMemoryMb, boolean requireGpu, String pinnedDevice,
               List<Data> data, long latencySloMillis) {
        public Job {
            data = data == null ? List.of() : List.copyOf(data);
        }
    }

    /**
     * The verdict: {@code site} (a gateway's device id, or the datacenter pool's) or, when none fits, {@code refusal}
     * saying what ruled out each site. {@code explanation} is the planner's decision as JSON (site, predicted
     * latency split, reasons, alternatives) for the action's details; null when there is none.
     */
    record Decision(String site, String refusal, JsonNode explanation) {
        public static Decision placed(String site, JsonNode explanation) {
            return new Decision(site, null, explanation);
        }

        public static Decision refused(String why, JsonNode explanation) {
            return new Decision(null, why, explanation);
        }

        public boolean placed() {
            return site != null;
        }
    }

    /** Decides for a new job. */
    Decision place(Job job);

    /**
     * The job's site {@code lost} went offline before the job finished: where it runs now, once decided (the planner
     * service places it again on its own and logs why; in process it is placed again here). Empty while no new
     * decision is known.
     */
    Optional<Decision> placedAgain(Job job, String lost);

    /**
     * Whether new decisions about a lost job are pushed ({@link #onPlacedAgain} is called) rather than only found by
     * asking {@link #placedAgain}; then a job waiting for one is asked about only slowly, as a fallback for a push
     * that never came.
     */
    default boolean pushesPlacedAgain() {
        return false;
    }

    /** Calls {@code jobId} with a job's id each time a new decision about it is pushed; no-op where none are. */
    default void onPlacedAgain(java.util.function.Consumer<String> jobId) {}

    /**
     * The job finished on {@code site}; {@code measured} says what it took (compute per task, queue, moving its input,
     * the rest of the round trip; {@link PlannerClient#NOT_MEASURED} for what was not measured): the cost model
     * learns compute and overhead.
     */
    void completed(Job job, String site, PlannerClient.Measured measured);
}
