package dev.continuum.edge.app;

import dev.continuum.edge.inference.BatchInference;
import dev.continuum.edge.inference.ModelRepository;
import dev.continuum.edge.messaging.MqttLink;
import dev.continuum.edge.protocol.CredentialGrant;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.InputRef;
import dev.continuum.edge.protocol.ModelDeployment;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.resources.ResourceProbe;
import dev.continuum.edge.store.TaskSpool;
import dev.continuum.provider.path.UnsafePathException;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 */
public final class EdgeGateway implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EdgeGateway.class.getName());
    private static final long MAX_INPUT_FILE_BYTES = 256L * 1024 * 1024;
    /**
     * Held acknowledgements beyond which one sync releases them all: keeps the broker's in-flight
     * window (Mosquitto: 20 per client) open under a burst, at one group commit per this many tasks.
     */
    static final int MAX_HELD_ACKS = 8;
    /**
     * A batch still running after this long is announced ("running" progress). Most inferences end sooner:
     * their result is the only message, instead of a progress message racing the result through the broker.
     */
    static final Duration ANNOUNCE_RUNNING_AFTER = Duration.ofMillis(50);

    /** The batch on ONNX Runtime now, and whether its "running" progress went out. */
    private record RunningBatch(List<String> taskIds, long startedNanos, AtomicBoolean announced) {}

    private final GatewayConfig config;
    private final Topics topics;
    private final Clock clock;
    private final ModelRepository models;
    private final TaskSpool spool;
    private final ResourceProbe probe;
    private final MqttLink link;
    private final ExecutorService intake = Executors.newSingleThreadExecutor(r -> thread(r, "gateway-intake"));
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "gateway-timers"));
    private final Thread worker;
    private final Set<String> sending = ConcurrentHashMap.newKeySet();
    private final AtomicLong tasksRun = new AtomicLong();
    private final AtomicLong heartbeatSeq = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    private final StageTimes stages = new StageTimes();
    private final Map<String, Long> admittedAt = new ConcurrentHashMap<>();
    private final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
    private final HeldAcks held = new HeldAcks();
    private volatile RunningBatch current;
    private final Path credentialFile;
    private volatile String credential;
    private volatile String pendingNonce;
    private volatile boolean stopping;
    private volatile Path dataRoot;

    public EdgeGateway(GatewayConfig config, Vertx vertx, Clock clock) {
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
        this.probe = new ResourceProbe(config.gpuSource(), config.stateDir());
        this.credentialFile = config.stateDir().resolve("device-credential");
        this.credential = readCredential();
        MqttLink.Will will = new MqttLink.Will(topics.status(config.deviceId()),
                Wire.encode(DeviceStatus.offline(config.deviceId(), clock.instant())));
        this.link = new MqttLink(vertx, MqttLink.Options.persistent(config.brokerHost(), config.brokerPort(), config.deviceId())
                .withKeepAlive(config.keepAliveSeconds()).withWill(will)
                .withLogin(new MqttLink.Login(config.deviceId(), this::brokerPassword)));
        this.worker = thread(this::work, "gateway-worker-" + config.deviceId());
    }

    /** Connects, registers if needed, and starts working; completes on the first connection. */
    public CompletableFuture<Void> start() {
        link.subscribe(topics.tasks(config.deviceId()), 1, m -> {
            long arrived = System.nanoTime();
            intake.execute(() -> admit(m, arrived));
        });
        link.subscribe(topics.credential(config.deviceId()), 1, this::onGrant);
        link.subscribe(topics.models(config.deviceId()), 1, m -> intake.execute(() -> deploy(m)));
        link.onConnection(new MqttLink.ConnectionListener() {
            @Override public void connected(boolean sessionPresent) { onConnected(); }
            @Override public void disconnected() { onDisconnected(); }
            @Override public void refused() { onRefused(); }
        });
        worker.start();
        long period = config.heartbeatInterval().toMillis();
        timers.scheduleAtFixedRate(this::heartbeat, period, period, TimeUnit.MILLISECONDS);
        timers.scheduleAtFixedRate(this::registerIfNeeded, 3, 3, TimeUnit.SECONDS);
        timers.scheduleAtFixedRate(this::flushResults, 2, 2, TimeUnit.SECONDS);
        long announce = ANNOUNCE_RUNNING_AFTER.toMillis();
        timers.scheduleAtFixedRate(this::announceRunning, announce, announce, TimeUnit.MILLISECONDS);
        // results kept for repeated task ids are forgotten after keepDone, so done/ stays bounded
        timers.scheduleAtFixedRate(this::pruneDone, 1, 3600, TimeUnit.SECONDS);
        return link.start();
    }

    public String deviceId() {
        return config.deviceId();
    }

    public ModelRepository models() {
        return models;
    }

    public Optional<String> credential() {
        return Optional.ofNullable(credential);
    }

    public boolean connected() {
        return link.connected();
    }

    /** How many tasks reached ONNX Runtime (a repeated task id does not count twice). */
    public long tasksRun() {
        return tasksRun.get();
    }

    /** Median time per stage of the task path (decode, spool, queue, ONNX, result, publish). */
    public StageTimes stageTimes() {
        return stages;
    }

    public int queuedTasks() {
        return spool.queued();
    }

    public int undeliveredResults() {
        return spool.undelivered().size();
    }

    /**
     * Clean stop: lets the batch in hand finish (so its results are on disk, not run again next
     * time), publishes a retained "offline", then DISCONNECTs. Spooled work waits on disk for the next start.
     */
    @Override
    public void close() {
        stopping = true;
        intake.shutdown();
        try {
            intake.awaitTermination(5, TimeUnit.SECONDS);
            worker.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // everything in hand to disk, so the broker can forget what it still holds for us
        syncAndRelease();
        timers.shutdownNow();
        try {
            link.stop(topics.status(config.deviceId()), Wire.encode(DeviceStatus.offline(config.deviceId(), clock.instant())))
                    .get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(Level.FINE, "stop", e);
        }
        models.close();
    }

    /**
     * The acknowledgements held for the lost connection can no longer be sent (the broker redelivers
     * those tasks); what is in hand goes to disk now, as the gateway works offline.
     */
    private void onDisconnected() {
        held.forget();
        if (config.durability() == GatewayConfig.Durability.BROKER) {
            offDisk(this::syncAndRelease);
        }
    }

    private void syncAndRelease() {
        try {
            spool.sync();
            held.releaseDurable(spool::durable);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot sync the spool", e);
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

    private void onConnected() {
        link.publish(topics.status(config.deviceId()), Wire.encode(DeviceStatus.online(config.deviceId(), clock.instant())), true);
        registerIfNeeded();
        heartbeat();
        timers.execute(this::flushResults);
    }

    // ---- identity -------------------------------------------------------------------------

    /** What the broker checks (ADR 0011): a configured password, else our credential, else the bootstrap token. */
    private String brokerPassword() {
        if (config.brokerPassword() != null) {
            return config.brokerPassword();
        }
        String current = credential;
        return current != null ? current : config.bootstrapToken();
    }

    /**
     * The broker refused our login. When that was our credential (revoked one by one), the bootstrap
     * token gets us in again to register for a new one; a revoked device stays out either way.
     */
    private void onRefused() {
        if (config.brokerPassword() == null && credential != null && config.bootstrapToken() != null) {
            LOG.warning(() -> config.deviceId() + ": the broker refused the device credential; registering again with the bootstrap token");
            forgetCredential();
        } else {
            LOG.warning(() -> config.deviceId() + ": the broker refused the login (revoked device or wrong password?)");
        }
    }

    private void registerIfNeeded() {
        if (credential != null || !link.connected() || stopping) {
            return;
        }
        if (config.bootstrapToken() == null) {
            LOG.warning(() -> config.deviceId() + " has neither a device credential nor a bootstrap token");
            return;
        }
        String nonce = UUID.randomUUID().toString();
        pendingNonce = nonce;
        link.publish(topics.register(config.deviceId()),
                Wire.encode(new Registration(config.deviceId(), config.bootstrapToken(), nonce)), false);
    }

    private void onGrant(MqttLink.Incoming message) {
        message.ack();
        CredentialGrant grant;
        try {
            grant = Wire.decode(message.payload(), CredentialGrant.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        if (grant.nonce() == null || !grant.nonce().equals(pendingNonce)) {
            return; // an answer to an older attempt, or to someone else
        }
        if (!grant.granted()) {
            LOG.warning(() -> config.deviceId() + " registration refused: " + grant.error());
            return;
        }
        credential = grant.deviceCredential();
        pendingNonce = null;
        writeCredential(credential);
        timers.execute(() -> {
            heartbeat();
            flushResults();
        });
    }

    /** The cloud refused our credential (e.g. revoked): forget it and register again with the bootstrap token. */
    public void forgetCredential() {
        credential = null;
        try {
            Files.deleteIfExists(credentialFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readCredential() {
        try {
            return Files.exists(credentialFile) ? Files.readString(credentialFile).trim() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeCredential(String value) {
        try {
            Path tmp = credentialFile.resolveSibling("device-credential.tmp");
            Files.writeString(tmp, value);
            Files.move(tmp, credentialFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- models ---------------------------------------------------------------------------

    /** Fetches (if not cached), verifies by digest and deploys a model; the next heartbeat shows it. */
    private void deploy(MqttLink.Incoming message) {
        message.ack();
        ModelDeployment d;
        try {
            d = Wire.decode(message.payload(), ModelDeployment.class);
            if (d.name() == null || d.version() == null || d.digest() == null) {
                throw new IllegalArgumentException("deployment needs name, version and digest");
            }
            if (!models.has(d.digest())) {
                URI url = URI.create(d.url());
                try (java.io.InputStream in = switch (url.getScheme()) {
                    case "file" -> Files.newInputStream(Path.of(url));
                    case "http", "https" -> java.net.http.HttpClient.newHttpClient().send(
                            java.net.http.HttpRequest.newBuilder(url).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofInputStream()).body();
                    default -> throw new IllegalArgumentException("model url must be file:, http: or https:");
                }) {
                    models.install(in, d.digest());
                }
            }
            models.deploy(d.name(), d.version(), d.digest());
            if (d.retire() != null && !d.retire().equals(d.digest())) {
                models.retire(d.retire());
            }
            LOG.info(() -> config.deviceId() + " deployed " + d.name() + "@" + d.version() + " = " + d.digest());
        } catch (Exception e) {
            LOG.warning(() -> config.deviceId() + " refused model deployment: " + e.getMessage());
            return;
        }
        heartbeat();
    }

    // ---- heartbeat ------------------------------------------------------------------------

    private void heartbeat() {
        if (credential == null || !link.connected() || stopping) {
            return;
        }
        try {
            ResourceProbe.Snapshot s = probe.sample();
            Heartbeat hb = new Heartbeat(config.deviceId(), credential, clock.instant().toString(),
                    heartbeatSeq.incrementAndGet(), s.gpus(), s.cpuCores(), s.cpuLoad(), s.memoryTotalMb(),
                    s.memoryFreeMb(), s.diskFreeMb(), models.executionProvider(), models.inventory(),
                    spool.queued(), running.get(), Heartbeat.WIRE_FORMS);
            link.publishAtMostOnce(topics.heartbeat(config.deviceId()), Wire.encode(hb));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "heartbeat failed", e);
        }
    }

    // ---- tasks ----------------------------------------------------------------------------

    private void admit(MqttLink.Incoming message, long arrived) {
        long start = System.nanoTime();
        stages.record(StageTimes.Stage.HANDOFF, start - arrived);
        TaskMessage task;
        try {
            task = Wire.decode(message.payload(), TaskMessage.class);
            if (task.taskId() == null || task.taskId().isBlank() || task.model() == null) {
                throw new IllegalArgumentException("task without task_id or model");
            }
        } catch (RuntimeException e) {
            LOG.warning(() -> "dropping malformed task: " + e.getMessage());
            message.ack();
            return;
        }
        long decoded = System.nanoTime();
        stages.record(StageTimes.Stage.DECODE, decoded - start);
        admittedAt.put(task.taskId(), decoded);
        boolean first = arrivedAt.putIfAbsent(task.taskId(), arrived) == null;
        TaskSpool.Admission admission;
        try {
            admission = config.durability() == GatewayConfig.Durability.DISK
                    ? spool.admit(task, message.payload())
                    : spool.admitBuffered(task, message.payload());
        } catch (RuntimeException e) {
            // could not persist: do not ack, so the broker redelivers it later
            LOG.log(Level.WARNING, "cannot spool task " + task.taskId(), e);
            if (first) {
                arrivedAt.remove(task.taskId());
            }
            return;
        }
        long spooled = System.nanoTime();
        stages.record(StageTimes.Stage.SPOOL, spooled - decoded);
        if (!(admission instanceof TaskSpool.Accepted)) {
            admittedAt.remove(task.taskId());
            if (first) {
                arrivedAt.remove(task.taskId());
            }
        }
        switch (admission) {
            case TaskSpool.Accepted a -> {
                accountFor(task.taskId(), message, a.mark());
                if (a.position() > 0) { // with nothing ahead it starts at once: no message but its result, if quick
                    progress(task.taskId(), "queued", a.position());
                }
            }
            case TaskSpool.Duplicate d -> {
                accountFor(task.taskId(), message, d.mark());
                d.result().ifPresentOrElse(this::send, () -> progress(task.taskId(), "queued", 0));
            }
            case TaskSpool.Rejected r -> {
                message.ack();
                send(ResultMessage.failed(task.taskId(), config.deviceId(), r.reason()));
            }
        }
    }

    /**
     * Acknowledges a task message once the spool record for it ({@code mark}) is on disk; until then
     * the acknowledgement is held (the broker keeps the task) and released when the task's result
     * reaches the broker. Too many held: one sync releases them all.
     */
    private void accountFor(String taskId, MqttLink.Incoming message, long mark) {
        if (spool.durable(mark)) {
            message.ack();
            return;
        }
        if (held.hold(taskId, message, mark) > MAX_HELD_ACKS) {
            syncAndRelease();
        }
    }

    private void work() {
        while (!stopping) {
            try {
                if (spool.awaitWork(Duration.ofMillis(500))) {
                    runNextBatch();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "worker error", e);
            }
        }
    }

    private void runNextBatch() {
        long start = System.nanoTime();
        List<TaskSpool.Spooled> head = spool.head(config.maxBatch());
        List<TaskSpool.Spooled> batch = new ArrayList<>();
        List<Tensor> inputs = new ArrayList<>();
        for (TaskSpool.Spooled s : head) {
            if (spool.expired(s)) {
                if (batch.isEmpty()) {
                    finish(s, ResultMessage.failed(s.task().taskId(), config.deviceId(), "expired before it could run"));
                    return;
                }
                break;
            }
            Tensor input;
            try {
                input = resolveInput(s.task());
            } catch (RuntimeException e) {
                if (batch.isEmpty()) {
                    finish(s, ResultMessage.failed(s.task().taskId(), config.deviceId(), "bad input: " + e.getMessage()));
                    return;
                }
                break;
            }
            if (!batch.isEmpty() && (!s.task().model().equals(batch.get(0).task().model())
                    || !BatchInference.stackable(inputs.get(0), input))) {
                break; // keep arrival order: a batch is a run of consecutive compatible tasks
            }
            batch.add(s);
            inputs.add(input);
        }
        if (batch.isEmpty()) {
            return;
        }
        long resolved = System.nanoTime();
        for (TaskSpool.Spooled s : batch) {
            Long admitted = admittedAt.remove(s.task().taskId());
            if (admitted != null) {
                stages.record(StageTimes.Stage.QUEUE, start - admitted);
            }
        }
        stages.record(StageTimes.Stage.INPUT, resolved - start);
        String model = batch.get(0).task().model();
        List<BatchInference.Outcome> outcomes;
        String digest;
        running.set(batch.size());
        try (ModelRepository.Lease lease = models.acquire(model)) {
            digest = lease.digest();
            current = new RunningBatch(batch.stream().map(s -> s.task().taskId()).toList(), System.nanoTime(),
                    new AtomicBoolean());
            tasksRun.addAndGet(batch.size());
            long onnx = System.nanoTime();
            outcomes = BatchInference.run(lease.model(), inputs);
            stages.record(StageTimes.Stage.ONNX, System.nanoTime() - onnx);
        } catch (RuntimeException e) {
            for (TaskSpool.Spooled s : batch) {
                finish(s, ResultMessage.failed(s.task().taskId(), config.deviceId(), e.getMessage()));
            }
            return;
        } finally {
            current = null;
            running.set(0);
        }
        for (int i = 0; i < batch.size(); i++) {
            TaskSpool.Spooled s = batch.get(i);
            double queuedMs = Duration.between(s.receivedAt(), clock.instant()).toNanos() / 1e6;
            ResultMessage result = switch (outcomes.get(i)) {
                case BatchInference.Output o -> new ResultMessage(s.task().taskId(), config.deviceId(), null,
                        ResultMessage.SUCCEEDED, sameFormAsInput(s.task(), o.tensor()), null, digest, o.batchSize(),
                        queuedMs, o.inferenceMs());
                case BatchInference.Failure f -> ResultMessage.failed(s.task().taskId(), config.deviceId(), f.error());
            };
            finish(s, result);
        }
    }

    /** A task that came as a binary frame is answered with one; a JSON task (an older cloud) with JSON. */
    private static Tensor sameFormAsInput(TaskMessage task, Tensor output) {
        return task.input() != null && task.input().inBody() ? Tensor.framed(output.shape(), output.values()) : output;
    }

    /** Tells the cloud about a batch that has been running for a while (on the timer thread). */
    private void announceRunning() {
        RunningBatch batch = current;
        if (batch == null || System.nanoTime() - batch.startedNanos() < ANNOUNCE_RUNNING_AFTER.toNanos()
                || !batch.announced().compareAndSet(false, true)) {
            return;
        }
        for (String taskId : batch.taskIds()) {
            progress(taskId, "running", 0);
        }
    }

    /** Best-effort news about a task (QoS 0). */
    private void progress(String taskId, String state, int position) {
        link.publishAtMostOnce(topics.progress(config.deviceId()),
                Wire.encode(new ProgressMessage(taskId, config.deviceId(), state, position)));
    }

    private Tensor resolveInput(TaskMessage task) {
        if (task.input() != null) {
            // decoded (base64) and checked once here; ONNX gets these values without a second decode
            return Tensor.of(task.input().shape(), task.input().values());
        }
        if (task.inputRef() == null) {
            throw new IllegalArgumentException("neither input nor input_ref");
        }
        // confined to the data directory: syntax by InputRef, symlinks by resolveIn, and the last
        // component is opened without following a link planted after the check
        try {
            Path file = InputRef.parse(task.inputRef()).resolveIn(dataRoot());
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalArgumentException("input_ref " + task.inputRef() + " names no file in the data directory");
            }
            if (Files.size(file) > MAX_INPUT_FILE_BYTES) {
                throw new IllegalArgumentException("input_ref " + task.inputRef() + " is larger than "
                        + MAX_INPUT_FILE_BYTES / (1024 * 1024) + " MB");
            }
            byte[] bytes;
            try (var in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                bytes = in.readAllBytes();
            }
            Tensor t = Wire.decode(bytes, Tensor.class);
            return Tensor.of(t.shape(), t.values());
        } catch (UnsafePathException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("input_ref " + task.inputRef() + " names no file in the data directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read input_ref " + task.inputRef() + ": " + e.getMessage());
        }
    }

    private Path dataRoot() throws IOException {
        Path root = dataRoot;
        if (root == null) {
            Files.createDirectories(config.dataDir());
            root = config.dataDir().toRealPath();
            dataRoot = root;
        }
        return root;
    }

    private void finish(TaskSpool.Spooled s, ResultMessage result) {
        long start = System.nanoTime();
        spool.finishBuffered(s.task().taskId(), result);
        // DISK: on disk before it is published. BROKER: published at once when the link is up (the
        // task's held PUBACK covers a crash); when it is down, kept on disk until it is back.
        boolean disk = config.durability() == GatewayConfig.Durability.DISK;
        if (disk) {
            spool.sync();
        }
        long durable = System.nanoTime();
        stages.record(StageTimes.Stage.RESULT, durable - start);
        if (!send(result) && !disk) {
            spool.sync(); // not sent now (link down, no credential): on disk until it can be
        }
        long published = System.nanoTime();
        stages.record(StageTimes.Stage.PUBLISH, published - durable);
        Long arrived = arrivedAt.remove(s.task().taskId());
        if (arrived != null) {
            stages.record(StageTimes.Stage.OVERHEAD, published - arrived - (long) (result.inferenceMs() * 1e6));
        }
    }

    // ---- results --------------------------------------------------------------------------

    private void flushResults() {
        if (stopping) {
            return;
        }
        for (ResultMessage r : spool.undelivered()) {
            send(r);
        }
    }

    /**
     * Publishes a result (once at a time per task); it leaves the outbox only on PUBACK, which also
     * releases the task's held acknowledgement. A publish that fails puts the result on disk, from
     * where {@link #flushResults} sends it again.
     */
    private boolean send(ResultMessage result) {
        String cred = credential;
        if (cred == null || !link.connected() || !sending.add(result.taskId())) {
            return false;
        }
        link.publish(topics.results(config.deviceId()), Wire.encode(result.signedWith(cred)), false)
                .whenComplete((ok, error) -> {
                    sending.remove(result.taskId());
                    if (error == null) {
                        spool.delivered(result.taskId());
                        held.release(result.taskId());
                    } else {
                        offDisk(this::syncAndRelease);
                    }
                });
        return true;
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

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
