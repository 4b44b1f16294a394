package dev.continuum.placement.planner;

import java.util.List;
import java.util.Map;

/** The planner's answer for one request: placed somewhere, or unplaceable with a reason per candidate site. */
public sealed interface PlacementDecision {
    String requestId();

    /** One scored candidate; lower score is better. */
    record Candidate(String site, String target, int gpus, double score, LatencyEstimate latency) {
    }

    /** {@code target} is a device (edge) or partition (datacenter); times are epoch milliseconds. */
    record Placed(String requestId, Candidate chosen, long predictedStartMillis, long predictedFinishMillis,
                  List<String> reasons, List<Candidate> alternatives) implements PlacementDecision {
        public Placed {
            reasons = List.copyOf(reasons);
            alternatives = List.copyOf(alternatives);
        }
    }

    record Unplaceable(String requestId, Map<String, String> reasonBySite) implements PlacementDecision {
        public Unplaceable {
            reasonBySite = Map.copyOf(reasonBySite);
        }
    }
}
