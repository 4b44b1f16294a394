package dev.continuum.placement.core.planner;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One decision about one job. A new request gets {@link Placed}, {@link Queued} or {@link Unplaceable}; a policy
 * round may later start a queued job ({@link Placed}), stop a running one ({@link Preempted}) or move or resize it
 * ({@link Moved}). Times are epoch milliseconds.
 */
public sealed interface PlacementDecision {
    String requestId();

    /**
     * One scored candidate; lower score is better (for inference the score is the predicted latency in ms, or under
     * {@code choose-by=p90} the learnt p90; {@code latency} is the predicted mean either way).
     * {@code target} is the device (edge) or the nodes and GPUs (datacenter); {@code explanation} says in words
     * how the score was reached or what ruled the candidate out.
     */
    record Candidate(String site, String target, int gpus, double score, LatencyEstimate latency,
                     String explanation) {
        public Candidate {
            explanation = explanation == null ? "" : explanation;
        }

        public Candidate(String site, String target, int gpus, double score, LatencyEstimate latency) {
            this(site, target, gpus, score, latency, "");
        }
    }

    /** Run the job on {@code chosen}; {@code reasons} say why, {@code alternatives} what else was scored. */
    record Placed(String requestId, Candidate chosen, long predictedStartMillis, long predictedFinishMillis,
                  List<String> reasons, List<Candidate> alternatives) implements PlacementDecision {
        public Placed {
            reasons = List.copyOf(reasons);
            alternatives = List.copyOf(alternatives);
        }
    }

    /** Waits in {@code site}'s queue under the policy; a later {@link Placed} starts it. */
    record Queued(String requestId, String site, int waitingJobs, List<String> reasons) implements PlacementDecision {
        public Queued {
            reasons = List.copyOf(reasons);
        }
    }

    /** Nowhere to run: what ruled out each candidate site, in the inventory's order. */
    record Unplaceable(String requestId, Map<String, String> reasonBySite) implements PlacementDecision {
        public Unplaceable {
            reasonBySite = Collections.unmodifiableMap(new LinkedHashMap<>(reasonBySite));
        }

        /** "site: reason" lines, as a user reads them. */
        public List<String> reasons() {
            return reasonBySite.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
        }
    }

    /** A running job must checkpoint and stop; it waits in {@code site}'s queue again. */
    record Preempted(String requestId, String site, String reason) implements PlacementDecision {
    }

    /** A running job moves (migration) or changes its GPUs (elastic resize) to {@code to}. */
    record Moved(String requestId, Candidate to, String reason) implements PlacementDecision {
    }
}
