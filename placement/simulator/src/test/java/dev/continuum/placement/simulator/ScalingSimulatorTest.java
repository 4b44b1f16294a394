package dev.continuum.placement.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.forecast.ForecastConfig;
import dev.continuum.placement.core.scaling.ScalingConfig;
import dev.continuum.placement.core.scaling.ScalingPolicy;
import dev.continuum.placement.simulator.ScalingSimulator.Request;
import dev.continuum.placement.simulator.ScalingSimulator.Result;
import dev.continuum.placement.simulator.ScalingSimulator.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalingSimulatorTest {
    private static final long DAY = 20 * 60_000;
    private static final long BURST_FROM = 15 * 60_000;
    /** One-minute buckets, a 20-minute "day" as the season, forecasts for this bucket and the next. */
    private static final ForecastConfig FORECAST = new ForecastConfig(60_000, List.of(1, 2), 20, 120, 0.9);
    private static final ScalingConfig CONFIG = ScalingConfig.defaults();

    /** Four 20-minute days: 0.5 requests/s, then a 5-minute burst of 6/s at the same time each day; 1 s each. */
    private static List<Request> dailyBursts() {
        List<Request> out = new ArrayList<>();
        for (int day = 0; day < 4; day++) {
            for (long t = 0; t < DAY; ) {
                out.add(new Request(day * DAY + t, 1_000));
                t += t >= BURST_FROM ? 1_000 / 6 : 2_000;
            }
        }
        return out;
    }

    private static Result run(String policy, List<Request> requests) {
        return ScalingSimulator.run(requests, ScalingPolicy.parse(policy, CONFIG), CONFIG, FORECAST, 1.0, 2);
    }

    private static Sample at(Result r, long millis) {
        return r.timeline().stream().filter(s -> s.atMillis() == millis).findFirst().orElseThrow();
    }

    @Test
    void shouldHaveWorkersReadyWhenAForecastBurstBeginsButReactiveOnlyAfter() {
        // given a burst at the same time every day
        List<Request> requests = dailyBursts();

        // when the predictive and the reactive policy scale for it
        Result predictive = run("predictive", requests);
        Result hpa = run("reactive-hpa", requests);

        // then on the last day the predictive pool serves 6/s as the burst begins (it started workers a minute
        // before), the reactive one is still where the quiet rate left it, and misses more of the wait SLO
        long burst = 3 * DAY + BURST_FROM;
        assertThat(at(predictive, burst).ready()).isGreaterThanOrEqualTo(7);
        assertThat(at(predictive, burst - 60_000).workers()).isGreaterThanOrEqualTo(7);
        assertThat(at(hpa, burst).ready()).isLessThan(6);
        assertThat(predictive.sloAttainment()).isGreaterThan(hpa.sloAttainment());
        assertThat(predictive.decisions().stream().filter(d -> d.atMillis() == burst - 60_000).findFirst().orElseThrow()
                .explain()).contains("forecast upper bound");
    }

    @Test
    void shouldPayThePeakAllDayWhenCapacityIsFixed() {
        // given the same bursts
        List<Request> requests = dailyBursts();

        // when a fixed pool sized for the burst serves them
        Result fixed = ScalingSimulator.run(requests, ScalingPolicy.parse("fixed:10", CONFIG), CONFIG, FORECAST, 1.0, 10);
        Result predictive = run("predictive", requests);

        // then it never cold-starts and meets the SLO, but pays 10 workers for the whole 80 minutes, far more
        assertThat(fixed.coldStarts()).isZero();
        assertThat(fixed.sloAttainment()).isEqualTo(1.0);
        assertThat(fixed.workerSeconds()).isBetween(10 * 4 * DAY / 1000.0 - 10, 10 * 4 * DAY / 1000.0 + 20);
        assertThat(predictive.workerSeconds()).isLessThan(0.7 * fixed.workerSeconds());
    }

    @Test
    void shouldReplayTheSameDecisionsAndFiguresWhenRunTwice() {
        List<Request> requests = dailyBursts();

        for (String policy : List.of("predictive", "reactive-hpa")) {
            Result a = run(policy, requests);
            Result b = run(policy, requests);

            // records compare doubles by Double.compare, so the NaN of a reason without a forecast equals itself
            assertThat(a.equals(b)).as(policy + " replayed identically").isTrue();
            assertThat(a.decisions()).hasSizeGreaterThan(300);
        }
    }

    @Test
    void shouldWaitForTheColdStartBeforeANewWorkerServes() {
        // given one warm worker and 3 requests/s of 1 s: the reactive policy must add workers
        List<Request> requests = new ArrayList<>();
        for (long t = 0; t < 180_000; t += 333) {
            requests.add(new Request(t, 1_000));
        }

        Result hpa = ScalingSimulator.run(requests, ScalingPolicy.parse("reactive-hpa", CONFIG), CONFIG, FORECAST,
                1.0, 1);

        // then the workers it adds at 15 s serve only from 75 s: until then the one worker is all there is
        assertThat(at(hpa, 15_000).workers()).isGreaterThan(1);
        assertThat(at(hpa, 60_000).ready()).isEqualTo(1);
        assertThat(at(hpa, 75_000).ready()).isGreaterThan(1);
        assertThat(hpa.coldStarts()).isGreaterThan(0);
    }
}
