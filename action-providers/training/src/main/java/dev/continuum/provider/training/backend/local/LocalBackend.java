package dev.continuum.provider.training.backend.local;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendInventory.PartitionInventory;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The embedded default backend: every run is a set of child processes of this JVM, one per GPU
 * slot it holds. A run that finds too few free slots waits (FIFO) and starts when a run ends, so
 * a preempting job may be submitted while its victim is still checkpointing. Nothing survives
 * this process: after a restart every earlier handle answers {@link BackendJobStatus.Lost} (its
 * processes are killed first, found through the pid file the run left), and the provider resumes
 * those jobs from their checkpoints.
 */
public final class LocalBackend implements TrainingBackend {
    private static final String NODE = "localhost";

    private final LocalBackendConfig config;
    private final Map<String, LocalRun> runs = new LinkedHashMap<>();
    private final Deque<LocalRun> waiting = new ArrayDeque<>();
    private final Deque<String> freeSlots;
    private final Map<LocalRun, List<String>> held = new LinkedHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "local-training-backend");
        t.setDaemon(true);
        return t;
    });

    public LocalBackend(LocalBackendConfig config) {
        this.config = config;
        this.freeSlots = new ArrayDeque<>(config.gpuSlots());
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public BackendInventory inventory() {
        return new BackendInventory(config.site(), List.of(new PartitionInventory(config.partition(), true,
                List.of(NODE), config.gpuSlots().size(), config.gpuModel(), config.cpus(), config.memoryMb())));
    }

    @Override
    public synchronized BackendJobHandle submit(TrainingJobSpec spec, Placement placement) throws BackendException {
        if (!placement.partition().equals(config.partition())) {
            throw new BackendException.Rejected("partition", "the local backend has only partition " + config.partition());
        }
        if (placement.gpus() > config.gpuSlots().size()) {
            throw new BackendException.Rejected("gpus_max", "asks for " + placement.gpus() + " GPUs, this machine has "
                    + config.gpuSlots().size() + " slots");
        }
        if (spec.command().isEmpty()) {
            throw new BackendException.Rejected("command", "the local backend runs commands, not container images");
        }
        // the pid file's path: unique per attempt, and lets a restarted backend find the processes of a lost run
        String key = LocalRun.pidFile(spec).toString();
        if (runs.containsKey(key)) {
            return handle(key);
        }
        LocalRun run = new LocalRun(spec, placement);
        runs.put(key, run);
        waiting.addLast(run);
        startWaiting();
        return handle(key);
    }

    @Override
    public synchronized BackendJobStatus status(BackendJobHandle handle) {
        LocalRun run = runs.get(handle.value());
        if (run == null) {
            killPids(Path.of(handle.value()));
            return new BackendJobStatus.Lost("the local backend restarted; the run's processes ended with it");
        }
        if (run.finalStatus() != null) {
            return run.finalStatus();
        }
        if (!run.started()) {
            return new BackendJobStatus.Pending("waiting for " + run.requested.gpus() + " free GPU slots");
        }
        if (run.exited().isDone()) {
            return ended(run);
        }
        return run.ending() == LocalRun.Ending.NONE ? new BackendJobStatus.Running(run.placement(), run.progress())
                : new BackendJobStatus.Stopping(run.placement(), run.progress());
    }

    @Override
    public synchronized void requestCheckpoint(BackendJobHandle handle, boolean stopAfter) {
        LocalRun run = runs.get(handle.value());
        if (run == null || !run.started() || run.exited().isDone()) {
            return;
        }
        if (stopAfter) {
            run.mark(LocalRun.Ending.STOP_REQUESTED);
            timers.schedule(() -> {
                if (run.alive()) {
                    run.mark(LocalRun.Ending.KILLED_AFTER_GRACE);
                    run.signal("KILL");
                }
            }, run.spec.gracePeriod().toMillis(), TimeUnit.MILLISECONDS);
        }
        run.signal("USR1");
    }

    @Override
    public synchronized void cancel(BackendJobHandle handle) {
        LocalRun run = runs.get(handle.value());
        if (run == null || run.finalStatus() != null) {
            return;
        }
        if (!run.started()) {
            waiting.remove(run);
            run.cancelBeforeStart();
            return;
        }
        run.mark(LocalRun.Ending.CANCELLED);
        run.signal("TERM");
        timers.schedule(() -> run.signal("KILL"), run.spec.gracePeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        List<LocalRun> all;
        synchronized (this) {
            all = new ArrayList<>(runs.values());
        }
        // the children must not outlive the provider: they would hold slots a restarted provider hands out again
        all.forEach(r -> r.signal("KILL"));
        timers.shutdownNow();
    }

    private BackendJobStatus ended(LocalRun run) {
        BackendJobStatus s = run.finish();
        List<String> slots = held.remove(run);
        if (slots != null) {
            freeSlots.addAll(slots);
            startWaiting();
        }
        return s;
    }

    /** Starts waiting runs in order while the first one finds its slots. */
    private void startWaiting() {
        while (!waiting.isEmpty() && waiting.peekFirst().requested.gpus() <= freeSlots.size()) {
            LocalRun run = waiting.pollFirst();
            List<String> slots = new ArrayList<>();
            for (int i = 0; i < run.requested.gpus(); i++) {
                slots.add(freeSlots.pollFirst());
            }
            held.put(run, slots);
            try {
                run.start(NODE, slots);
                // release the slots as soon as the processes end, not only when someone asks for the status
                run.exited().whenComplete((v, e) -> {
                    synchronized (this) {
                        ended(run);
                    }
                });
            } catch (IOException e) {
                held.remove(run);
                freeSlots.addAll(slots);
                run.cancelBeforeStart();
                throw new java.io.UncheckedIOException("cannot start " + run.spec.jobId(), e);
            }
        }
    }

    /** Kills the processes a pid file names, if they still run (a provider killed without a clean stop). */
    public static void killPids(Path pidFile) {
        try {
            if (Files.exists(pidFile)) {
                for (String line : Files.readAllLines(pidFile)) {
                    if (!line.isBlank()) {
                        ProcessHandle.of(Long.parseLong(line.strip())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // nothing left to kill that we can find
        }
    }

    private BackendJobHandle handle(String key) {
        return new BackendJobHandle(name(), key);
    }
}
