package dev.continuum.engine.app.triggers;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import dev.continuum.flow.run.RunStatus;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Timer triggers: each tick is an event whose dedup key is its fire time ({@code timer:<instant>}), so a tick
 * fired by two instances, by a catch-up and a backfill, or again after a crash starts one run.
 */
@ApplicationScoped
public class TimerService {

    private final TimerStore timers;
    private final TriggerService triggers;
    private final TriggerStore store;
    private final RunService runService;
    private final RunStore runs;
    private final OwnerGrants grants;
    private final Clock clock;

    public TimerService(TimerStore timers, TriggerService triggers, TriggerStore store, RunService runService, RunStore runs,
                        OwnerGrants grants, Clock clock) {
        this.timers = timers;
        this.triggers = triggers;
        this.store = store;
        this.runService = runService;
        this.runs = runs;
        this.grants = grants;
        this.clock = clock;
    }

    /** Fires every tick due by now (called every second by adapters/runtime/TimerTicks). */
    public Uni<Void> tick() {
        Instant now = clock.instant();
        return timers.due(now).onItem().transformToMulti(Multi.createFrom()::iterable)
                .onItem().transformToUniAndConcatenate(state -> tick(state, now)
                        .onFailure().recoverWithNull())
                .collect().asList().replaceWithVoid();
    }

    private Uni<Void> tick(TimerStore.TimerState state, Instant now) {
        Trigger trigger = state.trigger();
        TimerSchedule schedule = TimerSchedule.parse(trigger.spec().source(), new ArrayList<>()).orElseThrow();
        return failedTooOften(trigger, schedule).flatMap(failing -> {
            if (failing) {
                return triggers.pauseForFailures(trigger, schedule.pauseAfterFailures());
            }
            List<Instant> due = new ArrayList<>();
            Optional<Instant> next = Optional.ofNullable(state.nextFireAt());
            while (next.isPresent() && !next.get().isAfter(now) && due.size() < TimerSchedule.MAX_BATCH) {
                due.add(next.get());
                next = schedule.next(next.get());
            }
            List<Instant> fire = new ArrayList<>(schedule.toFire(due, now));
            int left = schedule.maxRuns() == null ? Integer.MAX_VALUE : schedule.maxRuns() - state.fires();
            while (fire.size() > Math.max(0, left)) {
                fire.remove(fire.size() - 1);
            }
            if (state.pendingFireAt() != null) {
                fire.add(0, state.pendingFireAt());
            }
            Instant after = next.orElse(null);
            return fireInOrder(trigger, schedule, fire).flatMap(result -> {
                int fires = state.fires() + result.fired();
                boolean spent = schedule.maxRuns() != null && fires >= schedule.maxRuns();
                return timers.advance(trigger.id(), state.nextFireAt(), spent ? null : after, fires, result.pending());
            }).replaceWithVoid();
        });
    }

    private record Fired(int fired, Instant pending) {}

    private Uni<Fired> fireInOrder(Trigger trigger, TimerSchedule schedule, List<Instant> times) {
        Uni<Fired> done = Uni.createFrom().item(new Fired(0, null));
        for (Instant t : times) {
            done = done.flatMap(sofar -> overlapThenFire(trigger, schedule, t).map(outcome -> outcome.isPresent()
                    ? new Fired(sofar.fired() + (outcome.get() instanceof EventOutcome.Started ? 1 : 0), sofar.pending())
                    : new Fired(sofar.fired(), t)));
        }
        return done;
    }

    /** Empty when the tick is kept for later (overlap buffer_one while a run is going). */
    private Uni<Optional<EventOutcome>> overlapThenFire(Trigger trigger, TimerSchedule schedule, Instant t) {
        if (schedule.overlap() == TimerSchedule.Overlap.ALLOW_ALL) {
            return fireAt(trigger, t, "schedule").map(Optional::of);
        }
        return activeRun(trigger).flatMap(active -> {
            if (active.isEmpty()) {
                return fireAt(trigger, t, "schedule").map(Optional::of);
            }
            return switch (schedule.overlap()) {
                case SKIP -> triggers.skip(trigger, event(trigger, t, "schedule"),
                        "run " + active.get() + " is still going (overlap: skip)").map(Optional::of);
                case BUFFER_ONE -> Uni.createFrom().item(Optional.<EventOutcome>empty());
                case CANCEL_PREVIOUS -> runService.cancel(active.get(), "cancelled by the next tick of trigger " + trigger.id(),
                                grants.starter(trigger.ownerId()))
                        .onFailure(EngineError.class).recoverWithNull() // finished meanwhile
                        .flatMap(cancelled -> fireAt(trigger, t, "schedule")).map(Optional::of);
                case ALLOW_ALL -> throw new IllegalStateException("handled above");
            };
        });
    }

    private Uni<Optional<UUID>> activeRun(Trigger trigger) {
        return timers.recentRuns(trigger.id(), 1, Instant.EPOCH).flatMap(recent -> recent.isEmpty() ? Uni.createFrom().item(Optional.empty())
                : runs.find(recent.get(0)).map(run -> run.filter(r -> !r.state().status().finished()).map(r -> r.id())));
    }

    /** The last {@code pause_after_failures} runs all failed. */
    private Uni<Boolean> failedTooOften(Trigger trigger, TimerSchedule schedule) {
        Integer n = schedule.pauseAfterFailures();
        if (n == null) {
            return Uni.createFrom().item(false);
        }
        return timers.recentRuns(trigger.id(), n, trigger.updatedAt()).flatMap(recent -> recent.size() < n ? Uni.createFrom().item(false)
                : Multi.createFrom().iterable(recent).onItem().transformToUniAndConcatenate(runs::find)
                .collect().asList().map(found -> found.stream().allMatch(run -> run.isPresent()
                        && run.get().state().status() == RunStatus.FAILED)));
    }

    private Uni<EventOutcome> fireAt(Trigger trigger, Instant t, String why) {
        return triggers.fire(trigger, event(trigger, t, why));
    }

    private TriggerEvent event(Trigger trigger, Instant t, String why) {
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.put("fire_time", t.toString());
        payload.put("fired_by", why);
        return new TriggerEvent("timer:" + t, payload, clock.instant());
    }

    /** Fires a timer trigger now, outside its schedule (owner and administrators). */
    public Uni<EventOutcome> fireNow(UUID id, Viewer viewer) {
        return triggers.administered(id, viewer).flatMap(trigger -> {
            timerOnly(trigger);
            Instant now = clock.instant();
            return triggers.fire(trigger, new TriggerEvent("timer:now:" + UUID.randomUUID(), event(trigger, now, "fire_now").payload(), now));
        });
    }

    /**
     * Fires every tick of the schedule in {@code [from, to)} (ISO-8601 instants as text): ticks already fired are
     * duplicates and start nothing. The range is read once the caller may fire the trigger.
     */
    public Uni<List<EventOutcome>> backfill(UUID id, String fromText, String toText, Viewer viewer) {
        return triggers.administered(id, viewer).flatMap(trigger -> {
            Instant from = instant("from", fromText);
            Instant to = instant("to", toText);
            if (from == null || to == null || !to.isAfter(from)) {
                throw EngineError.invalidField("/to", "a range with 'from' before 'to' (ISO-8601 instants) is required");
            }
            timerOnly(trigger);
            TimerSchedule schedule = TimerSchedule.parse(trigger.spec().source(), new ArrayList<>()).orElseThrow();
            List<Instant> times = schedule.between(from, to);
            if (times.size() >= TimerSchedule.MAX_BATCH) {
                throw EngineError.invalidField("/from", "the range holds more than " + TimerSchedule.MAX_BATCH + " ticks; backfill it in parts");
            }
            return Multi.createFrom().iterable(times).onItem()
                    .transformToUniAndConcatenate(t -> fireAt(trigger, t, "backfill")).collect().asList();
        });
    }

    /** Null when absent (the range check names it); a bare number is refused, not read as seconds since 1970. */
    private static Instant instant(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            String shown = value.length() <= 64 ? value : value.substring(0, 64) + "…";
            throw EngineError.invalidField("/" + name, "'" + shown + "' is not an ISO-8601 instant (e.g. 2026-11-25T08:00:00Z)");
        }
    }

    private static void timerOnly(Trigger trigger) {
        if (!trigger.sourceType().equals("timer")) {
            throw EngineError.invalidField("/source/type", "trigger " + trigger.id() + " is not a timer trigger");
        }
    }
}
