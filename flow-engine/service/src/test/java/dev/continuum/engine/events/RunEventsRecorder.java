package dev.continuum.engine.events;

import dev.continuum.engine.app.RunChanged;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A consumer of the run-event stream as any other would subscribe: the channel run-events, in process. */
@ApplicationScoped
public class RunEventsRecorder {

    private final Map<UUID, List<RunChanged>> byRun = new ConcurrentHashMap<>();

    @Incoming("run-events")
    void take(RunChanged change) {
        byRun.computeIfAbsent(change.runId(), id -> new CopyOnWriteArrayList<>()).add(change);
    }

    /** What arrived for the run so far, in arrival order. */
    public List<RunChanged> of(String runId) {
        return List.copyOf(byRun.getOrDefault(UUID.fromString(runId), List.of()));
    }
}
