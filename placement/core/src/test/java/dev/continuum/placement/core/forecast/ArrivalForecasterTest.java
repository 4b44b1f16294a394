package dev.continuum.placement.core.forecast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class ArrivalForecasterTest {
    private static final long MINUTE = 60_000;
    private static final ForecastConfig HOURLY_SEASON = new ForecastConfig(MINUTE, List.of(1, 5, 15), 60, 120, 0.9);

    /** Feeds Poisson arrivals with the given mean per minute (seeded: the same every run) for {@code minutes}. */
    private static void feed(ArrivalForecaster forecaster, String model, String site, int fromMinute, int minutes,
                             IntToDoubleFunction meanPerMinute, long seed) {
        Random random = new Random(seed);
        for (int minute = fromMinute; minute < fromMinute + minutes; minute++) {
            int n = poisson(random, meanPerMinute.applyAsDouble(minute));
            for (int i = 0; i < n; i++) {
                forecaster.arrival(model, site, minute * MINUTE + (long) (random.nextDouble() * MINUTE));
            }
            forecaster.advanceTo((minute + 1) * MINUTE);
        }
    }

    private static int poisson(Random random, double mean) {
        double limit = Math.exp(-mean);
        double p = 1;
        int k = 0;
        do {
            k++;
            p *= random.nextDouble();
        } while (p > limit);
        return k - 1;
    }

    private static double cycle(int minute) {
        return 20 + 15 * Math.sin(2 * Math.PI * minute / 60.0);
    }

    @Test
    void shouldForecastACyclingRateWithASeasonalMethodAndIntervalsThatHoldIt() {
        ArrivalForecaster forecaster = new ArrivalForecaster(HOURLY_SEASON);

        feed(forecaster, "resnet", "gw-1", 0, 6 * 60, ArrivalForecasterTest::cycle, 7);

        Forecast ahead = forecaster.forecast(new SeriesKey("resnet", "gw-1"), 15).orElseThrow();
        assertThat(ahead.method()).isIn("seasonal-naive", "holt-winters");
        double expectedPerSecond = cycle(6 * 60 + 15 - 1) / 60;
        assertThat(ahead.rate()).isCloseTo(expectedPerSecond, org.assertj.core.data.Offset.offset(0.1));
        assertThat(ahead.lower()).isLessThan(ahead.rate());
        assertThat(ahead.upper()).isGreaterThan(ahead.rate());
        assertThat(ahead.smape()).isLessThan(0.3);
        assertThat(ahead.coverage()).isBetween(0.75, 1.0);
        assertThat(ahead.scored()).isEqualTo(120);
    }

    @Test
    void shouldFollowABurstWithinThreeMinutesOfItsStart() {
        ArrivalForecaster forecaster = new ArrivalForecaster(HOURLY_SEASON);
        feed(forecaster, "ocr", "dc", 0, 60, m -> 2, 3);
        double before = forecaster.forecast(new SeriesKey("ocr", "dc"), 1).orElseThrow().upper();

        feed(forecaster, "ocr", "dc", 60, 3, m -> 40, 4);

        Forecast next = forecaster.forecast(new SeriesKey("ocr", "dc"), 1).orElseThrow();
        assertThat(next.rate() * 60).as("jobs per minute expected next minute").isGreaterThan(20);
        assertThat(next.rate()).isGreaterThan(before * 3);
        assertThat(next.actualRate() * 60).isGreaterThan(25);
    }

    @Test
    void shouldScoreAConstantRateAsExact() {
        ArrivalForecaster forecaster = new ArrivalForecaster(HOURLY_SEASON);
        for (int minute = 0; minute < 90; minute++) {
            for (int i = 0; i < 6; i++) {
                forecaster.arrival("m", "gw-1", minute * MINUTE + i * 10_000);
            }
        }
        forecaster.advanceTo(90 * MINUTE);

        Forecast f = forecaster.forecast(new SeriesKey("m", "gw-1"), 5).orElseThrow();
        assertThat(f.rate()).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(f.smape()).isZero();
        assertThat(f.coverage()).isEqualTo(1.0);
    }

    @Test
    void shouldKeepASeriesPerSiteAndOnePerModelOverAllSites() {
        ArrivalForecaster forecaster = new ArrivalForecaster(HOURLY_SEASON);
        for (int minute = 0; minute < 40; minute++) {
            forecaster.arrival("m", "gw-1", minute * MINUTE);
            forecaster.arrival("m", "gw-2", minute * MINUTE + 1);
            forecaster.arrival("m", "gw-2", minute * MINUTE + 2);
        }
        forecaster.advanceTo(40 * MINUTE);

        assertThat(forecaster.forecast(new SeriesKey("m", "gw-1"), 1).orElseThrow().rate() * 60).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(forecaster.forecast(new SeriesKey("m", "gw-2"), 1).orElseThrow().rate() * 60).isCloseTo(2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(forecaster.forecast(SeriesKey.allSites("m"), 1).orElseThrow().rate() * 60).isCloseTo(3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(forecaster.forecasts()).extracting(f -> f.series().site()).containsSubsequence("*", "gw-1", "gw-2");
    }

    @Test
    void shouldForecastNothingAfterAWeekOfSilence() {
        ArrivalForecaster forecaster = new ArrivalForecaster(ForecastConfig.defaults());
        feed(forecaster, "m", "gw-1", 0, 60, m -> 10, 5);

        forecaster.advanceTo(7L * 24 * 60 * MINUTE);

        Forecast next = forecaster.forecast(new SeriesKey("m", "gw-1"), 1).orElseThrow();
        assertThat(next.rate()).isZero();
        assertThat(next.smape()).as("the silence is forecast exactly by now").isZero();
    }

    @Test
    void shouldGiveTheSameForecastsWhenTheSameArrivalsAreReplayed() {
        ArrivalForecaster live = new ArrivalForecaster(HOURLY_SEASON);
        feed(live, "resnet", "gw-1", 0, 200, ArrivalForecasterTest::cycle, 11);
        ArrivalForecaster replayed = new ArrivalForecaster(HOURLY_SEASON);
        feed(replayed, "resnet", "gw-1", 0, 200, ArrivalForecasterTest::cycle, 11);

        assertThat(replayed.forecasts()).isEqualTo(live.forecasts()).isNotEmpty();
    }

    @Test
    void shouldRefuseAConfigurationWithoutHorizons() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ForecastConfig(MINUTE, List.of(), 60, 120, 0.9))
                .hasMessageContaining("horizons");
    }
}
