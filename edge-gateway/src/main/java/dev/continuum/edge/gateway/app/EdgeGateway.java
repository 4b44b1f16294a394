package dev.continuum.edge.gateway.app;

import dev.continuum.edge.gateway.files.FileWatcher;
import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.resources.GpuPoller;
import dev.continuum.edge.gateway.resources.ResourceProbe;
import dev.continuum.edge.gateway.store.FileEventLog;
import dev.continuum.edge.gateway.store.TaskSpool;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The agent on an edge device. It keeps an MQTT link to the cloud, registers (bootstrap token →
 * device credential, kept in {@code stateDir}), sends heartbeats, spools every task to disk, runs
 * tasks in arrival order on ONNX Runtime (batching consecutive tasks for the same model), and
 * delivers each result until the broker acknowledges it — across link loss and restarts. A task
 * is acknowledged to the broker only once it is accounted for: on disk, or (by default,
 * {@link GatewayConfig.Durability#BROKER}) its result acknowledged by the broker. A task id seen
 * before is never run again; its known result is sent again instead.
 *
 * <p>This class wires the parts and their threads; each part has one job: {@link Credentials} (login and
 * registration), {@link TaskAdmission} (a task in: spooled, repeated or refused), {@link TaskAcks} (when the
 * broker may forget a task), {@link BatchRunner} (the worker and ONNX Runtime), {@link ResultOutbox} (results
 * out, once each), {@link Heartbeats} and {@link ModelDeployer}. Threads: the MQTT event loop only hands
 * messages on; the intake thread decodes, spools and does disk work; the worker runs batches; the timer
 * thread sends heartbeats, registrations, result flushes and "running" news.
 */
public final class EdgeGateway implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EdgeGateway.class.getName());
    /** How often the file watches look: notifications are collected between, waiting files re-checked. */
    static final long FILE_TICK_MS = 100;

    private final GatewayConfig config;
    private final Topics topics;
    private final Clock clock;
    private final ModelRepository models;
    private final TaskSpool spool;
    private final MqttLink link;
    private final MqttUplink uplink;
    private final ExecutorService intake = Executors.newSingleThreadExecutor(r -> thread(r, "gateway-intake"));
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "gateway-timers"));
    private final StageTimes stages = new StageTimes();
    private final Credentials credentials;
    private final TaskAcks acks;
    private final ResultOutbox outbox;
    private final TaskAdmission admission;
    private final BatchRunner runner;
    private final Heartbeats heartbeats;
    private final ModelDeployer deployer;
    private final ScheduledExecutorService filesThread = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "gateway-files"));
    private final FileEventLog fileLog;
    private final FileWatcher watcher;
    private final FileOutbox fileOutbox;
    private final WatchList watchList;
    private volatile boolean stopping;

    public EdgeGateway(GatewayConfig config, Vertx vertx, Clock clock) {
        this(config, vertx, clock, GlobalOpenTelemetry.get());
    }

    /** A gateway whose task spans go to {@code telemetry} (the global one, a no-op unless installed, by default). */
    public EdgeGateway(GatewayConfig config, Vertx vertx, Clock clock, OpenTelemetry telemetry) {
        this.config = config;
        this.topics = config.topics();
        this.clock = clock;
        try {
            Files.createDirectories(config.stateDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.models = new ModelRepository(config.stateDir().resolve("models"), config.preferGpu());
        this.spool = TaskSpool.open(config.stateDir().resolve("spool"), config.spoolLimits(), clock);
        this.credentials = new Credentials(config, () -> timers.execute(() -> {
            heartbeat();
            flushResults();
        }));
        MqttLink.Will will = new MqttLink.Will(topics.status(config.deviceId()),
                Wire.encode(DeviceStatus.offline(config.deviceId(), clock.instant())));
        // the password is asked for at each connect: the credentials change it from bootstrap token to credential
        this.link = new MqttLink(vertx, MqttLink.Options.persistent(config.brokerHost(), config.brokerPort(), config.deviceId())
                .withKeepAlive(config.keepAliveSeconds()).withWill(will).withAckTimeout(config.linkAckTimeout())
                .withLogin(new MqttLink.Login(config.deviceId(), credentials::brokerPassword)).withTls(config.brokerTls()));
        this.uplink = new MqttUplink(link, topics, config.deviceId());
        TaskTimings timings = new TaskTimings(stages);
        this.acks = new TaskAcks(spool);
        this.outbox = new ResultOutbox(config.durability(), spool, uplink, credentials::current, acks, timings,
                this::offDisk, Clock.systemUTC());
        this.admission = new TaskAdmission(config, spool, acks, outbox, uplink, timings);
        this.runner = new BatchRunner(config, spool, models, new TaskInputs(config.dataDir()), outbox, uplink, timings, clock,
                new TaskSpans(telemetry, config.deviceId()));
        this.heartbeats = new Heartbeats(config.deviceId(), new ResourceProbe(config.gpuSource(), config.stateDir()),
                models, spool, runner::running, credentials::current, uplink, clock, config.role());
        this.deployer = new ModelDeployer(config.deviceId(), models);
        this.fileLog = FileEventLog.open(config.stateDir().resolve("files"), config.spoolLimits().fsync());
        this.watcher = new FileWatcher(config.dataDir(), config.deviceId(), fileLog, clock::millis);
        this.fileOutbox = new FileOutbox(fileLog, uplink, filesThread);
        this.watchList = new WatchList(config.stateDir().resolve("watches.json"), watcher);
    }

    /** Connects, registers if needed, and starts working; completes on the first connection. */
    public CompletableFuture<Void> start() {
        link.subscribe(topics.tasks(config.deviceId()), 1, m -> {
            long arrived = System.nanoTime();
            intake.execute(() -> admission.admit(m, arrived));
        });
        link.subscribe(topics.credential(config.deviceId()), 1, m -> {
            m.ack();
            credentials.onGrant(m.payload());
        });
        link.subscribe(topics.models(config.deviceId()), 1, m -> intake.execute(() -> {
            m.ack();
            if (deployer.deploy(m.payload())) {
                heartbeat();
            }
        }));
        link.subscribe(topics.watches(config.deviceId()), 1, m -> filesThread.execute(() -> {
            watchList.received(m.payload());
            m.ack();
        }));
        link.onConnection(new MqttLink.ConnectionListener() {
            @Override public void connected(boolean sessionPresent) { onConnected(); }
            @Override public void disconnected() { onDisconnected(); }
            @Override public void refused() { credentials.refused(); }
        });
        runner.start();
        if (config.gpuSource() instanceof GpuPoller gpus) {
            gpus.start(); // nvidia-smi on its own thread: a heartbeat only reads the last reading
        }
        long period = config.heartbeatInterval().toMillis();
        timers.scheduleAtFixedRate(this::heartbeat, period, period, TimeUnit.MILLISECONDS);
        timers.scheduleAtFixedRate(this::registerIfNeeded, 3, 3, TimeUnit.SECONDS);
        timers.scheduleAtFixedRate(this::flushResults, 2, 2, TimeUnit.SECONDS);
        long announce = BatchRunner.ANNOUNCE_RUNNING_AFTER.toMillis();
        timers.scheduleAtFixedRate(runner::announceRunning, announce, announce, TimeUnit.MILLISECONDS);
        // results kept for repeated task ids are forgotten after keepDone, so done/ stays bounded
        timers.scheduleAtFixedRate(this::pruneDone, 1, 3600, TimeUnit.SECONDS);
        watchList.loadKept();
        filesThread.scheduleWithFixedDelay(this::watchFiles, 0, FILE_TICK_MS, TimeUnit.MILLISECONDS);
        return link.start();
    }

    public String deviceId() {
        return config.deviceId();
    }

    public ModelRepository models() {
        return models;
    }

    public Optional<String> credential() {
        return credentials.credential();
    }

    public boolean connected() {
        return link.connected();
    }

    /** How many tasks reached ONNX Runtime (a repeated task id does not count twice). */
    public long tasksRun() {
        return runner.tasksRun();
    }

    /** Median time per stage of the task path (decode, spool, queue, ONNX, result, publish). */
    public StageTimes stageTimes() {
        return stages;
    }

    public int queuedTasks() {
        return spool.queued();
    }

    /** File events not yet acknowledged by the broker (kept on disk). */
    public int undeliveredFileEvents() {
        return fileOutbox.undelivered();
    }

    /** Watches this gateway refused (a path leading outside its data directory, an unreadable pattern). */
    public java.util.List<FileWatcher.Refusal> refusedWatches() {
        return watcher.refusals();
    }

    public int undeliveredResults() {
        return outbox.undelivered();
    }

    /** The cloud refused our credential (e.g. revoked): forget it and register again with the bootstrap token. */
    public void forgetCredential() {
        credentials.forget();
    }

    /**
     * Clean stop: lets the batch in hand finish (so its results are on disk, not run again next
     * time), publishes a retained "offline", then DISCONNECTs. Spooled work waits on disk for the next start.
     */
    @Override
    public void close() {
        stopping = true;
        runner.stop();
        intake.shutdown();
        try {
            intake.awaitTermination(5, TimeUnit.SECONDS);
            runner.awaitStopped(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // everything in hand to disk, so the broker can forget what it still holds for us
        acks.syncAndRelease();
        timers.shutdownNow();
        if (config.gpuSource() instanceof GpuPoller gpus) {
            gpus.close();
        }
        filesThread.shutdown();
        try {
            filesThread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watcher.close();
        try {
            uplink.stop(DeviceStatus.offline(config.deviceId(), clock.instant())).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(Level.FINE, "stop", e);
        }
        models.close();
        fileLog.close();
    }

    private void onConnected() {
        uplink.status(DeviceStatus.online(config.deviceId(), clock.instant()));
        registerIfNeeded();
        heartbeat();
        timers.execute(this::flushResults);
        filesThread.execute(fileOutbox::flush);
    }

    /**
     * The acknowledgements held for the lost connection can no longer be sent (the broker redelivers
     * those tasks); what is in hand goes to disk now, as the gateway works offline.
     */
    private void onDisconnected() {
        acks.linkLost();
        if (config.durability() == GatewayConfig.Durability.BROKER) {
            offDisk(acks::syncAndRelease);
        }
    }

    /** Disk work triggered on the MQTT event loop runs on the intake thread instead. */
    private void offDisk(Runnable work) {
        try {
            intake.execute(work);
        } catch (RejectedExecutionException e) {
            work.run(); // stopping: close() is on its way and syncs anyway; do it here, off no event loop
        }
    }

    private void registerIfNeeded() {
        if (!stopping) {
            credentials.registerIfNeeded(uplink);
        }
    }

    private void heartbeat() {
        if (!stopping) {
            heartbeats.beat();
        }
    }

    private void flushResults() {
        if (!stopping) {
            outbox.flush();
        }
    }

    /** One pass of the file watches: new complete files to the outbox (on disk), then out on the link. */
    private void watchFiles() {
        if (stopping) {
            return;
        }
        try {
            watcher.tick();
            fileOutbox.flush();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "watching files failed; trying again", e);
        }
    }

    private void pruneDone() {
        try {
            int removed = spool.pruneDone();
            if (removed > 0) {
                LOG.fine(() -> config.deviceId() + " forgot " + removed + " delivered results past their keep time");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "pruning delivered results failed", e);
        }
    }

    private static Thread thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
