package dev.continuum.flow.run;

import java.util.List;

/** The result of one transition: the new run state, what to do once it is stored, and what to log. */
public record Step(RunState state, List<Effect> effects, List<LogEntry> log) {

    public Step {
        effects = List.copyOf(effects);
        log = List.copyOf(log);
    }
}
