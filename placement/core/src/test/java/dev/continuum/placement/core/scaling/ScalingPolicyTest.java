package dev.continuum.placement.core.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.core.forecast.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalingPolicyTest {
    private static final ScalingConfig CONFIG = ScalingConfig.defaults();
    private static final long SECOND = 1_000;

    private static PoolSnapshot pool(long at, int workers, double utilisation, double rate, List<Forecast> forecasts) {
        return new PoolSnapshot(at, workers, workers, utilisation, 0, rate, 1.0, forecasts);
    }

    /** A forecast {@code buckets} one-minute buckets ahead, the rate {@code upper} at most. */
    private static Forecast forecast(int buckets, double rate, double upper, double lastRate) {
        return new Forecast(SeriesKey.allSites("m"), buckets, buckets * 60 * SECOND, rate, rate * 0.8, upper,
                "seasonal-naive", 0.1, 0.9, 20, lastRate);
    }

    @Test
    void shouldScaleUpByTheHpaRuleWhenUtilisationIsAboveTarget() {
        // given ten busy workers at 90 % against a 70 % target
        ReactiveHpaScaling hpa = new ReactiveHpaScaling(CONFIG);

        // when
        ScalingDecision d = hpa.decide(pool(15 * SECOND, 10, 0.9, 9, List.of()));

        // then ceil(10 x 0.9 / 0.7) = 13, three cold starts
        assertThat(d.to()).isEqualTo(13);
        assertThat(d.reason().coldStarts()).isEqualTo(3);
    }

    @Test
    void shouldHoldWhenUtilisationIsWithinTheHpaTolerance() {
        ReactiveHpaScaling hpa = new ReactiveHpaScaling(CONFIG);

        ScalingDecision d = hpa.decide(pool(15 * SECOND, 10, 0.75, 7.5, List.of()));

        assertThat(d.changes()).isFalse();
    }

    @Test
    void shouldScaleDownOnlyAfterTheStabilisationWindowWhenLoadFalls() {
        // given a pool of 13 that goes idle
        ReactiveHpaScaling hpa = new ReactiveHpaScaling(CONFIG);
        hpa.decide(pool(0, 13, 0.7, 9, List.of()));

        // when it stays idle
        List<Integer> counts = new ArrayList<>();
        for (long t = 15; t <= 330; t += 15) {
            counts.add(hpa.decide(pool(t * SECOND, 13, 0.05, 0.6, List.of())).to());
        }

        // then it keeps 13 for 300 s (the window still holds the recommendation of 13), then drops to 1
        assertThat(counts.subList(0, 19)).containsOnly(13);
        assertThat(counts.getLast()).isEqualTo(1);
    }

    @Test
    void shouldSizeForTheForecastUpperBoundBeforeTheRateRisesWhenPredictive() {
        // given 1 request/s now but up to 10/s forecast for the minute a worker started now would be ready in
        PredictiveScaling predictive = new PredictiveScaling(CONFIG);

        // when
        ScalingDecision d = predictive.decide(pool(60 * SECOND, 2, 0.5, 1,
                List.of(forecast(1, 1, 1.5, 1), forecast(2, 8, 10, 1))));

        // then it starts enough workers for 10/s of 1 s requests (more than 10: the wait SLO needs headroom)
        assertThat(d.to()).isGreaterThan(10);
        assertThat(QueueSizing.waitBeyond(d.to(), 10, 1, 2)).isLessThanOrEqualTo(0.01);
        assertThat(d.reason().upper()).isEqualTo(10);
        assertThat(d.reason().horizonMillis()).isEqualTo(120 * SECOND);
        assertThat(d.explain()).contains("forecast upper bound (seasonal-naive)", "cold start");
    }

    @Test
    void shouldIgnoreForecastsBeyondTheColdStartWhenPredictive() {
        // given a burst forecast 15 minutes ahead: a worker started then is still in time
        PredictiveScaling predictive = new PredictiveScaling(CONFIG);

        ScalingDecision d = predictive.decide(pool(60 * SECOND, 2, 0.5, 1,
                List.of(forecast(1, 1, 1.5, 1), forecast(15, 8, 10, 1))));

        assertThat(d.to()).isLessThan(10);
    }

    @Test
    void shouldKeepTheWarmMinimumWhenNothingIsForecast() {
        PredictiveScaling predictive = new PredictiveScaling(CONFIG.withWarmMinimum(2).withScaleDownHold(0));

        ScalingDecision d = predictive.decide(pool(60 * SECOND, 5, 0, 0, List.of(forecast(1, 0, 0, 0))));

        assertThat(d.to()).isEqualTo(2);
        assertThat(d.explain()).contains("warm minimum");
    }

    @Test
    void shouldPayTheFixedPeakCountAtEveryTick() {
        ScalingPolicy fixed = ScalingPolicy.parse("fixed:7", CONFIG);

        assertThat(fixed.decide(pool(15 * SECOND, 7, 0.01, 0.1, List.of())).to()).isEqualTo(7);
        assertThat(fixed.decide(pool(30 * SECOND, 7, 1, 50, List.of())).reason().workerSecondsPerHour())
                .isEqualTo(7 * 3600);
    }

    @Test
    void shouldDecideTheSameWhenTheSameSnapshotsAreReplayed() {
        // given one sequence of snapshots: a rise and a fall
        List<PoolSnapshot> snapshots = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            double rate = i < 20 ? 2 : i < 40 ? 12 : 1;
            snapshots.add(new PoolSnapshot(i * 15 * SECOND, 5 + i % 3, 5, Math.min(1, rate / 8), i % 4, rate, 1.0,
                    List.of(forecast(1, rate, rate * 1.2, rate), forecast(2, rate, rate * 1.3, rate))));
        }

        // when two fresh policies of each kind see it
        for (String name : List.of("predictive", "reactive-hpa", "fixed:4")) {
            ScalingPolicy a = ScalingPolicy.parse(name, CONFIG);
            ScalingPolicy b = ScalingPolicy.parse(name, CONFIG);

            // then every decision, reason included, is the same
            assertThat(snapshots.stream().map(a::decide).toList()).isEqualTo(snapshots.stream().map(b::decide).toList());
        }
    }

    @Test
    void shouldNameTheKnownPoliciesWhenGivenAnUnknownOne() {
        assertThatThrownBy(() -> ScalingPolicy.parse("hpa", CONFIG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("predictive, reactive-hpa, fixed:N");
    }
}
