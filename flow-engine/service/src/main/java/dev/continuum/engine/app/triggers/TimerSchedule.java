package dev.continuum.engine.app.triggers;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.domain.EngineError.FieldIssue;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A timer source: when it fires (once, every interval, or a Unix cron in a time zone, via cron-utils, which
 * quarkus-scheduler already ships), between start and end, at most {@code maxRuns} times; what it does about
 * ticks missed while the engine was down ({@link CatchUp}); and about a run still going at the next tick
 * ({@link Overlap}).
 */
public record TimerSchedule(Instant once, Duration every, ExecutionTime cron, String cronText, ZoneId zone, Instant start,
                            Instant end, Integer maxRuns, CatchUp catchUp, Duration catchUpWindow, Overlap overlap,
                            Integer pauseAfterFailures) {

    /** none: skip missed ticks; last: fire the latest one missed; all: every one missed within the window. */
    public enum CatchUp { NONE, LAST, ALL }

    /** skip the tick; buffer_one: fire it once the run finishes (one kept at most); allow_all; cancel_previous. */
    public enum Overlap { SKIP, BUFFER_ONE, ALLOW_ALL, CANCEL_PREVIOUS }

    /** A tick this late counts as missed (the engine was down or busy), not as on time. */
    public static final Duration GRACE = Duration.ofMinutes(1);
    /** Most ticks one catch-up or backfill fires: more is a mistake in the schedule, not a wish. */
    public static final int MAX_BATCH = 1000;

    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    /** The schedule of a {@code {"type":"timer", ...}} source; problems are added to {@code issues} by field. */
    public static Optional<TimerSchedule> parse(JsonNode source, List<FieldIssue> issues) {
        int before = issues.size();
        Instant once = instant(source, "once", issues);
        Duration every = duration(source, "every", issues);
        ExecutionTime cron = null;
        String cronText = text(source, "cron");
        if (cronText != null) {
            try {
                cron = ExecutionTime.forCron(UNIX.parse(cronText).validate());
            } catch (IllegalArgumentException e) {
                issues.add(new FieldIssue("/source/cron", "not a 5-field Unix cron expression: " + e.getMessage()));
            }
        }
        ZoneId zone = ZoneOffset.UTC;
        if (text(source, "zone") != null) {
            try {
                zone = ZoneId.of(text(source, "zone"));
            } catch (DateTimeException e) {
                issues.add(new FieldIssue("/source/zone", "not a time zone id such as Europe/Berlin: " + text(source, "zone")));
            }
        }
        long kinds = java.util.stream.Stream.of("once", "every", "cron").filter(source::hasNonNull).count();
        if (kinds != 1) {
            issues.add(new FieldIssue("/source", "exactly one of 'once', 'every' (ISO-8601 duration) or 'cron' is required"));
        }
        if (every != null && every.compareTo(Duration.ofSeconds(1)) < 0) {
            issues.add(new FieldIssue("/source/every", "at least PT1S"));
        }
        Instant start = instant(source, "start", issues);
        Instant end = instant(source, "end", issues);
        if (start != null && end != null && !end.isAfter(start)) {
            issues.add(new FieldIssue("/source/end", "must be after start"));
        }
        Integer maxRuns = source.hasNonNull("max_runs") ? source.get("max_runs").asInt() : null;
        if (maxRuns != null && maxRuns < 1) {
            issues.add(new FieldIssue("/source/max_runs", "at least 1"));
        }
        Integer pauseAfter = source.hasNonNull("pause_after_failures") ? source.get("pause_after_failures").asInt() : null;
        if (pauseAfter != null && pauseAfter < 1) {
            issues.add(new FieldIssue("/source/pause_after_failures", "at least 1"));
        }
        CatchUp catchUp = choice(source, "catch_up", CatchUp.class, CatchUp.NONE, issues);
        Duration window = duration(source, "catch_up_window", issues);
        Overlap overlap = choice(source, "overlap", Overlap.class, Overlap.ALLOW_ALL, issues);
        if (issues.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new TimerSchedule(once, every, cron, cronText, zone, start, end, maxRuns, catchUp,
                window == null ? Duration.ofDays(1) : window, overlap, pauseAfter));
    }

    /** The first fire time strictly after {@code after}, within start and end. */
    public Optional<Instant> next(Instant after) {
        Instant from = after;
        if (start != null && (from == null || from.isBefore(start))) {
            from = start.minusNanos(1);
        }
        Optional<Instant> next;
        if (once != null) {
            next = from == null || once.isAfter(from) ? Optional.of(once) : Optional.empty();
        } else if (every != null) {
            // Ticks are start + k * every (start: the schedule's own start, else its first computation).
            Instant origin = start != null ? start : after == null ? Instant.EPOCH : after;
            if (from == null || from.isBefore(origin)) {
                next = Optional.of(origin);
            } else {
                long k = Duration.between(origin, from).dividedBy(every) + 1;
                next = Optional.of(origin.plus(every.multipliedBy(k)));
            }
        } else {
            next = cron.nextExecution(java.util.Objects.requireNonNull(from, "a cron tick follows a moment").atZone(zone))
                    .map(java.time.ZonedDateTime::toInstant);
        }
        // Whole seconds: a tick's time is its dedup key, and must read back from the database exactly as written.
        Instant bound = after == null ? Instant.MIN : after;
        return next.map(t -> t.truncatedTo(ChronoUnit.SECONDS)).map(t -> t.isAfter(bound) ? t : t.plusSeconds(1))
                .filter(t -> end == null || !t.isAfter(end));
    }

    /** Fire times in {@code [from, to)}, at most {@link #MAX_BATCH}. */
    public List<Instant> between(Instant from, Instant to) {
        List<Instant> times = new ArrayList<>();
        Optional<Instant> t = next(from.minusNanos(1));
        while (t.isPresent() && t.get().isBefore(to) && times.size() < MAX_BATCH) {
            times.add(t.get());
            t = next(t.get());
        }
        return times;
    }

    /** Of the ticks due by {@code now} (oldest first), those the catch-up policy fires. */
    public List<Instant> toFire(List<Instant> due, Instant now) {
        List<Instant> onTime = due.stream().filter(t -> !t.isBefore(now.minus(GRACE))).toList();
        return switch (catchUp) {
            case NONE -> onTime;
            case LAST -> due.isEmpty() ? List.of() : List.of(due.get(due.size() - 1));
            case ALL -> due.stream().filter(t -> !t.isBefore(now.minus(catchUpWindow))).toList();
        };
    }

    private static String text(JsonNode source, String field) {
        return source.hasNonNull(field) ? source.get(field).asText() : null;
    }

    private static Instant instant(JsonNode source, String field, List<FieldIssue> issues) {
        String value = text(source, field);
        try {
            // whole seconds, as every tick is (see next)
            return value == null ? null : Instant.parse(value).truncatedTo(ChronoUnit.SECONDS);
        } catch (DateTimeParseException e) {
            issues.add(new FieldIssue("/source/" + field, "not an ISO-8601 instant such as 2026-01-31T22:00:00Z"));
            return null;
        }
    }

    private static Duration duration(JsonNode source, String field, List<FieldIssue> issues) {
        String value = text(source, field);
        try {
            return value == null ? null : Duration.parse(value);
        } catch (DateTimeParseException e) {
            issues.add(new FieldIssue("/source/" + field, "not an ISO-8601 duration such as PT15M"));
            return null;
        }
    }

    private static <E extends Enum<E>> E choice(JsonNode source, String field, Class<E> type, E fallback, List<FieldIssue> issues) {
        String value = text(source, field);
        if (value == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            issues.add(new FieldIssue("/source/" + field, "one of " + java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).toList()));
            return fallback;
        }
    }
}
