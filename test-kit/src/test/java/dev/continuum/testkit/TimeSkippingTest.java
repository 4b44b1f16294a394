package dev.continuum.testkit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeSkippingTest {

    private final VirtualClock clock = new VirtualClock();

    @Test
    void shouldJumpTheClockToWhatIsDueNextWhenTheSystemIsIdle() {
        Instant weekAway = clock.instant().plus(Duration.ofDays(7));
        AtomicInteger looks = new AtomicInteger();
        TimeSkipping skipping = new TimeSkipping(clock, () -> true, () -> Optional.of(weekAway), looks::incrementAndGet,
                Duration.ofSeconds(10), Duration.ofSeconds(1));

        skipping.until("a week to pass", () -> clock.instant().isAfter(weekAway));

        assertThat(clock.instant()).as("virtual time after the wait").isAfter(weekAway);
        assertThat(looks.get()).as("the system was told to look after the jump").isPositive();
    }

    @Test
    void shouldLeaveTheClockAloneWhileTheSystemIsBusy() {
        Instant before = clock.instant();
        AtomicInteger looks = new AtomicInteger();
        TimeSkipping skipping = new TimeSkipping(clock, () -> false, () -> Optional.of(before.plus(Duration.ofDays(1))),
                looks::incrementAndGet, Duration.ofMillis(300), Duration.ofSeconds(1));

        assertThatThrownBy(() -> skipping.until("a day to pass", () -> false))
                .isInstanceOf(AssertionError.class).hasMessageContaining("a day to pass did not happen within");
        assertThat(Duration.between(before, clock.instant())).as("virtual time moved while busy").isLessThan(Duration.ofHours(1));
    }

    @Test
    void shouldDeclareTheWaitStuckWhenNothingIsDueForTheQuietPeriod() {
        AtomicBoolean done = new AtomicBoolean();
        TimeSkipping skipping = new TimeSkipping(clock, () -> true, Optional::empty, () -> {}, Duration.ofSeconds(10),
                Duration.ofMillis(200));
        Instant start = Instant.now();

        assertThatThrownBy(() -> skipping.until("an outside event", done::get))
                .isInstanceOf(AssertionError.class).hasMessageContaining("nothing due");
        assertThat(Duration.between(start, Instant.now())).as("real time before it was declared stuck").isLessThan(Duration.ofSeconds(5));
    }
}
