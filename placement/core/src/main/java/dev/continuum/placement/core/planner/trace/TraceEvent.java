package dev.continuum.placement.core.planner.trace;

import dev.continuum.placement.core.planner.InvalidRequestException.FieldError;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;

import dev.continuum.placement.core.planner.Restored;
import java.util.List;

/**
 * One line of a planner trace. A trace is a {@link Header}, then inputs ({@link InventoryChanged},
 * {@link Arrived}, {@link Observed}, {@link Restore}), each followed by what the planner answered ({@link Decided} or, for a
 * refused request, {@link Refused}). Replaying feeds the inputs to a fresh planner and compares the answers.
 */
public sealed interface TraceEvent {
    int VERSION = 1;

    record Header(int version, PlannerConfig config) implements TraceEvent {
    }

    record InventoryChanged(long atMillis, Inventory inventory) implements TraceEvent {
    }

    record Arrived(long atMillis, PlacementRequest request) implements TraceEvent {
    }

    record Observed(Observation observation) implements TraceEvent {
    }

    /** A restarted planner took back these unfinished jobs from its decision log. */
    record Restore(long atMillis, List<Restored> jobs) implements TraceEvent {
        public Restore {
            jobs = List.copyOf(jobs);
        }
    }

    /** The decisions the input before took, in order (for an arrival, the request's own first). */
    record Decided(List<PlacementDecision> decisions) implements TraceEvent {
        public Decided {
            decisions = List.copyOf(decisions);
        }
    }

    /** The arrival before was refused as invalid. */
    record Refused(List<FieldError> errors) implements TraceEvent {
        public Refused {
            errors = List.copyOf(errors);
        }
    }
}
