package dev.continuum.flow.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The complete durable state of a run: everything needed to continue it after a crash. Immutable;
 * the interpreter returns a new one for every transition. Store it with {@link #toJson()} and load it
 * with {@link #fromJson(JsonNode)}, which round-trip exactly.
 */
public final class RunState {

    static final ObjectMapper MAPPER = beanMapper()
            .registerModule(new SimpleModule("run-data").addSerializer(RunData.class, new RunDataWriter()));

    /** The stored form's settings; without {@link RunDataWriter}, its document is Jackson's bean serialisation. */
    static ObjectMapper beanMapper() {
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    }

    private final RunData data;

    RunState(RunData data) {
        this.data = data;
    }

    /** A private copy the interpreter may change. */
    RunData mutableCopy() {
        return data.copy();
    }

    RunData data() {
        return data;
    }

    public String runId() {
        return data.runId;
    }

    public String flowId() {
        return data.flowId;
    }

    public int flowVersion() {
        return data.flowVersion;
    }

    /** Who started the run. */
    public String userId() {
        return data.userId;
    }

    public String label() {
        return data.label;
    }

    /** The statuses whose arrival the run's owner is told of (Globus' activity_notification_policy; default INACTIVE). */
    public java.util.List<String> notifyOn() {
        return data.notifyOn == null ? java.util.List.of(RunStatus.INACTIVE.name()) : java.util.List.copyOf(data.notifyOn);
    }

    /** The owner's e-mail address for notices, if known. */
    public Optional<String> notifyEmail() {
        return Optional.ofNullable(data.notifyEmail);
    }

    public RunStatus status() {
        return data.status;
    }

    public Optional<JsonNode> output() {
        return data.status == RunStatus.SUCCEEDED ? Optional.ofNullable(data.output) : Optional.empty();
    }

    public Optional<String> error() {
        return Optional.ofNullable(data.error);
    }

    public Optional<String> cause() {
        return Optional.ofNullable(data.cause);
    }

    /** The top-level state a FAILED run stopped in (a Parallel or Map for a failure inside one); empty otherwise. */
    public Optional<String> failedState() {
        return data.status == RunStatus.FAILED ? Optional.ofNullable(data.failedState) : Optional.empty();
    }

    /** The input the state a FAILED run stopped in had: what a redrive there reuses unless given another. */
    public Optional<JsonNode> failedInput() {
        return data.status == RunStatus.FAILED ? Optional.ofNullable(data.failedInput).map(JsonNode::deepCopy) : Optional.empty();
    }

    public Optional<String> inactiveReason() {
        return data.status == RunStatus.INACTIVE ? Optional.ofNullable(data.inactiveReason) : Optional.empty();
    }

    /** The earliest time a scheduled poll or timer is due; empty when nothing is scheduled. */
    public Optional<Instant> nextWakeAt() {
        return nextWakeAt(token -> null);
    }

    /**
     * As {@link #nextWakeAt()}, with each action's poll at {@link #pollAt} (some actions' finishes are reported without
     * asking: {@code pollNotBefore} gives, by token, when to ask them anyway, or null for an action polled as scheduled).
     */
    public Optional<Instant> nextWakeAt(Function<String, Instant> pollNotBefore) {
        if (data.status.finished()) {
            return Optional.empty();
        }
        return data.branches.values().stream()
                .map(branch -> branch.waiting)
                .filter(Objects::nonNull)
                .flatMap(waiting -> switch (waiting.kind) {
                    case TIMER, RETRY, YIELD -> Stream.of(waiting.at);
                    case ACTION -> waiting.action.actionId != null
                            ? Stream.ofNullable(pollAt(waiting, pollNotBefore.apply(waiting.token))) : Stream.empty();
                    case JOIN -> Stream.empty();
                })
                .filter(Objects::nonNull)
                .min(Instant::compareTo);
    }

    /**
     * When the action awaited under {@code token} is to be polled: its scheduled (backed-off) poll, or, for an action
     * whose finish will be reported anyway, not before {@code notBefore} (null: as scheduled) but still by its WaitTime
     * deadline, so a timeout is noticed on time. Null when the run waits on no such action or has no poll scheduled.
     */
    public Instant pollAt(String token, Instant notBefore) {
        return data.branches.values().stream()
                .map(branch -> branch.waiting)
                .filter(waiting -> waiting != null && waiting.kind == RunData.WaitKind.ACTION && token.equals(waiting.token))
                .findFirst().map(waiting -> pollAt(waiting, notBefore)).orElse(null);
    }

    private static Instant pollAt(RunData.Waiting waiting, Instant notBefore) {
        Instant next = waiting.action.nextPollAt;
        if (next == null || notBefore == null) {
            return next;
        }
        Instant deadline = waiting.action.deadline;
        Instant later = deadline != null && deadline.isBefore(notBefore) ? deadline : notBefore;
        return later.isAfter(next) ? later : next;
    }

    /** Names of the states the run currently sits in (one per live branch). */
    public java.util.List<String> currentStates() {
        return data.branches.values().stream().map(branch -> branch.stateName).toList();
    }

    /**
     * A form the run waits on (a human-input Action, {@link dev.continuum.flow.model.FormAction}): the state, the
     * token a submission answers, the form as evaluated from the state's Parameters, and when it times out.
     */
    public record PendingForm(String stateName, String token, JsonNode form, Instant expiresAt) {
    }

    /** The forms the run waits on, one per branch waiting in a human-input state. */
    public java.util.List<PendingForm> pendingForms() {
        if (data.status.finished()) {
            return java.util.List.of();
        }
        return data.branches.values().stream()
                .filter(branch -> branch.waiting != null && branch.waiting.kind == RunData.WaitKind.ACTION
                        && branch.waiting.action.actionId != null
                        && dev.continuum.flow.model.FormAction.is(branch.waiting.action.actionUrl))
                .map(branch -> new PendingForm(branch.stateName, branch.waiting.token,
                        branch.waiting.action.body.deepCopy(), branch.waiting.action.deadline))
                .toList();
    }

    public JsonNode toJson() {
        return MAPPER.valueToTree(data);
    }

    /** The document {@link #toJson()} gives, written straight to text: a store's one serialisation per state. */
    public String toJsonText() {
        try {
            return MAPPER.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("run state not writable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** {@link #fromJson} from the stored text, without building a tree first. */
    public static RunState fromJsonText(String text) {
        try {
            return new RunState(MAPPER.readValue(text, RunData.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a stored run state: " + e.getOriginalMessage(), e);
        }
    }

    public static RunState fromJson(JsonNode json) {
        try {
            return new RunState(MAPPER.treeToValue(json, RunData.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a stored run state: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "RunState" + toJson();
    }
}
