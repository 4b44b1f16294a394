package dev.continuum.edge.fleet;

import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The cloud end of task delivery. A task stays pending until its device answers with a result
 * signed by that device's credential; until then it is published again whenever the device
 * (re)announces itself online, when this side reconnects, and when the device has shown no
 * sign of life for {@code resendAfter}. Gateways are idempotent by task id, so a repeat costs a
 * message, never a second run, and a repeated result completes nothing twice.
 */
public final class TaskDispatcher implements AutoCloseable {

    private static final class Pending {
        final String deviceId;
        final TaskMessage task;
        final CompletableFuture<ResultMessage> result = new CompletableFuture<>();
        volatile Instant lastSign;

        Pending(String deviceId, TaskMessage task, Instant now) {
            this.deviceId = deviceId;
            this.task = task;
            this.lastSign = now;
        }
    }

    private final MqttLink link;
    private final Topics topics;
    private final DeviceCredentials credentials;
    private final Clock clock;
    private final Duration resendAfter;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final List<Consumer<ProgressMessage>> progressListeners = new CopyOnWriteArrayList<>();
    private volatile Predicate<String> readsFrames = deviceId -> false;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "task-dispatcher-sweep");
        t.setDaemon(true);
        return t;
    });

    public TaskDispatcher(MqttLink link, Topics topics, DeviceCredentials credentials, Clock clock, Duration resendAfter) {
        this.link = link;
        this.topics = topics;
        this.credentials = credentials;
        this.clock = clock;
        this.resendAfter = resendAfter;
    }

    public void attach() {
        link.subscribe(topics.allResults(), 1, this::onResult);
        link.subscribe(topics.allProgress(), 0, this::onProgress);
        link.subscribe(topics.allStatuses(), 1, this::onStatus);
        link.onConnection(sessionPresent -> pending.values().forEach(this::publish));
        long period = Math.max(200, resendAfter.toMillis() / 2);
        sweeper.scheduleAtFixedRate(this::resendQuiet, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Tells which devices read binary frames (e.g. from their heartbeats): their tasks' inline tensors
     * go as raw float32 bytes; every other device gets JSON with base64. Unknown devices get JSON.
     */
    public void sendFramesTo(Predicate<String> value) {
        readsFrames = value;
    }

    /** Sends a task to a device; the future completes with its verified result (never twice). */
    public CompletableFuture<ResultMessage> send(String deviceId, TaskMessage task) {
        Pending p = pending.computeIfAbsent(task.taskId(), id -> new Pending(deviceId, task, clock.instant()));
        publish(p);
        p.result.whenComplete((r, e) -> pending.remove(task.taskId(), p));
        return p.result;
    }

    /** Asks a device to fetch (by URL), verify (by digest) and deploy a model; its heartbeats show the outcome. */
    public CompletableFuture<Void> deployModel(String deviceId, dev.continuum.edge.protocol.ModelDeployment deployment) {
        return link.publish(topics.models(deviceId), Wire.encode(deployment), false);
    }

    /** Stops waiting for a task (e.g. cancelled); a late result is ignored. */
    public void forget(String taskId) {
        Pending p = pending.remove(taskId);
        if (p != null) {
            p.result.cancel(false);
        }
    }

    public void onProgress(Consumer<ProgressMessage> listener) {
        progressListeners.add(listener);
    }

    public int pendingCount() {
        return pending.size();
    }

    /** Tasks sent to {@code deviceId} and not answered yet (load the heartbeats have not reported yet). */
    public int pendingFor(String deviceId) {
        return (int) pending.values().stream().filter(p -> p.deviceId.equals(deviceId)).count();
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }

    private void publish(Pending p) {
        if (link.connected()) {
            link.publish(topics.tasks(p.deviceId), Wire.encode(inFormFor(p.deviceId, p.task)), false);
        }
    }

    private TaskMessage inFormFor(String deviceId, TaskMessage task) {
        Tensor input = task.input();
        if (input == null) {
            return task;
        }
        boolean frames = readsFrames.test(deviceId);
        if (frames == input.inBody()) {
            return task;
        }
        return task.withTensor(frames ? Tensor.framed(input.shape(), input.values()) : Tensor.compact(input.shape(), input.values()));
    }

    private void resendQuiet() {
        Instant cutoff = clock.instant().minus(resendAfter);
        for (Pending p : pending.values()) {
            if (p.lastSign.isBefore(cutoff)) {
                p.lastSign = clock.instant();
                publish(p);
            }
        }
    }

    private void onResult(MqttLink.Incoming message) {
        message.ack();
        String deviceId = topics.deviceIdOf(message.topic());
        ResultMessage r;
        try {
            r = Wire.decode(message.payload(), ResultMessage.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        Pending p = r.taskId() == null ? null : pending.get(r.taskId());
        if (p == null || !p.deviceId.equals(deviceId) || !deviceId.equals(r.deviceId())
                || !credentials.verifyFor(deviceId, r.credential())) {
            return; // unknown, already answered, from the wrong device, or not genuine
        }
        p.result.complete(r);
    }

    private void onProgress(MqttLink.Incoming message) {
        message.ack();
        ProgressMessage m;
        try {
            m = Wire.decode(message.payload(), ProgressMessage.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        Pending p = m.taskId() == null ? null : pending.get(m.taskId());
        if (p != null && p.deviceId.equals(topics.deviceIdOf(message.topic()))) {
            p.lastSign = clock.instant();
            progressListeners.forEach(l -> l.accept(m));
        }
    }

    private void onStatus(MqttLink.Incoming message) {
        message.ack();
        String deviceId = topics.deviceIdOf(message.topic());
        try {
            if (!Wire.decode(message.payload(), DeviceStatus.class).isOnline()) {
                return;
            }
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        // the device (re)connected: whatever its broker session lost, it gets again
        pending.values().stream().filter(p -> p.deviceId.equals(deviceId)).forEach(this::publish);
    }
}
