package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.training.core.JobState;
import dev.continuum.provider.training.core.TrainingJob;
import dev.continuum.provider.training.core.TrainingScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Training jobs as actions: the request becomes a {@link TrainingJob} that the
 * {@link TrainingScheduler} places, runs, preempts and resizes; every change is written to the
 * action's details (and so to its store). One thread does all scheduling: it polls the backend
 * every {@code pollInterval} and runs the admissions, so the scheduler's decisions stay in order.
 */
public final class TrainingProvider implements ActionProvider, AutoCloseable {
    private final TrainingScheduler scheduler;
    private final RequestReader reader;
    private final Map<String, ActionContext> contexts = new ConcurrentHashMap<>();
    /** Who asked for each job (the action's creator), kept after the job ends so the operators' list can name them. */
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private final java.util.function.BiConsumer<String, String> runOfJob;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "training-scheduler");
        t.setDaemon(true);
        return t;
    });

    /** Builds the scheduler with {@link #onChange} as its listener, and starts polling. */
    public TrainingProvider(SchedulerFactory schedulerFactory, AllowedRoots roots, Duration defaultGrace,
                            Duration pollInterval) throws Exception {
        this(schedulerFactory, roots, defaultGrace, pollInterval, (job, run) -> { });
    }

    /** As above; {@code runOfJob} is told the run each new job belongs to, when its request id names one. */
    public TrainingProvider(SchedulerFactory schedulerFactory, AllowedRoots roots, Duration defaultGrace,
                            Duration pollInterval, java.util.function.BiConsumer<String, String> runOfJob)
            throws Exception {
        this.runOfJob = runOfJob;
        this.scheduler = schedulerFactory.create(this::onChange);
        this.reader = new RequestReader(scheduler.inventory(), roots, defaultGrace);
        loop.scheduleWithFixedDelay(this::pollQuietly, pollInterval.toMillis(), pollInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** How the provider gets its scheduler: the listener is the provider's own. */
    @FunctionalInterface
    public interface SchedulerFactory {
        TrainingScheduler create(dev.continuum.provider.training.core.JobListener listener) throws Exception;
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Training")
                .subtitle("Trains a model on the cluster's accelerators, preemptible and resizable from checkpoints")
                .description("Runs a command (or container image) on GPUs chosen by the planner; the job checkpoints "
                        + "on SIGUSR1 and resumes from its newest checkpoint (docs/training.md). details has state, "
                        + "placement, progress, checkpoints and the history of moves.")
                .keywords(List.of("training", "gpu", "slurm", "kubernetes", "checkpoint"))
                .scope("urn:continuum:providers:training")
                .inputSchema(Schemas.REQUEST)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        TrainingJob job = TrainingJob.queued(ctx.actionId(), reader.read(request.body(), ctx.actionId()));
        contexts.put(ctx.actionId(), ctx);
        if (request.callingRunId() != null) {
            runOfJob.accept(ctx.actionId(), request.callingRunId()); // before the planner decides: filed under the run
        }
        rememberOwner(ctx.actionId(), ctx.caller().id());
        loop.execute(() -> scheduler.admit(job));
        return ctx.active(display(job), JobJson.details(job));
    }

    @Override
    public void cancel(ActionContext ctx) {
        runOnLoop(() -> scheduler.cancel(ctx.actionId()));
        contexts.remove(ctx.actionId());
    }

    @Override
    public void resume(ActionContext ctx) {
        TrainingJob job = JobJson.restore(ctx.actionId(), reader.read(ctx.request().body(), ctx.actionId()),
                ctx.status().details());
        contexts.put(ctx.actionId(), ctx);
        rememberOwner(ctx.actionId(), ctx.status().creatorId());
        loop.execute(() -> scheduler.admit(job));
    }

    TrainingScheduler scheduler() {
        return scheduler;
    }

    private void rememberOwner(String jobId, String creator) {
        if (creator != null) {
            owners.put(jobId, creator);
        }
    }

    /** The action's creator (the engine's run acts as the person who started it); empty when not known. */
    java.util.Optional<String> owner(String jobId) {
        return java.util.Optional.ofNullable(owners.get(jobId));
    }

    /** Runs {@code task} on the scheduling thread and waits for it. */
    void runOnLoop(Runnable task) {
        try {
            loop.submit(task).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the training scheduler did not answer: " + e.getMessage(), e);
        }
    }

    private void onChange(TrainingJob job) {
        ActionContext ctx = contexts.get(job.id());
        if (ctx == null) {
            return;
        }
        ObjectNode details = JobJson.details(job);
        switch (job.state()) {
            case SUCCEEDED -> {
                contexts.remove(job.id());
                ctx.complete(details);
            }
            case FAILED -> {
                contexts.remove(job.id());
                ctx.fail(job.message(), details);
            }
            case CANCELLED -> contexts.remove(job.id());
            default -> ctx.progress(display(job), details);
        }
    }

    private static String display(TrainingJob job) {
        String where = job.placement().map(p -> " on " + p.partition() + " (" + p.gpus() + " GPUs)").orElse("");
        String step = job.progress().map(p -> ", step " + p.step()).orElse("");
        return capitalised(job.state()) + where + step;
    }

    private static String capitalised(JobState s) {
        String w = s.wire();
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    private void pollQuietly() {
        try {
            scheduler.poll();
        } catch (RuntimeException e) {
            // one bad poll (a vanished file, a backend hiccup) must not stop the loop for every job
            System.getLogger(TrainingProvider.class.getName()).log(System.Logger.Level.WARNING,
                    "training poll failed: " + e);
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }

    /** The SDK's stop hook (the provider closed at exit): the scheduler's loop ends; the jobs stay for a restart. */
    @Override
    public void stop() {
        close();
    }
}
