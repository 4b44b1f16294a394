package dev.continuum.placement.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.simulator.ScalingSimulator.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrivalTraceTest {
    private static final long DAY = 86_400_000;
    @TempDir Path dir;

    @Test
    void shouldReadAzureRequestsAsWorkFromTheirTokensWhenGivenTheInferenceTrace() throws IOException {
        // given three requests in Azure's format, out of order
        Path csv = dir.resolve("azure.csv");
        Files.writeString(csv, """
                TIMESTAMP,ContextTokens,GeneratedTokens
                2023-11-16 18:15:46.6805900,374,44
                2023-11-16 18:15:51.2224670,879,55
                2023-11-16 18:15:50.9951690,396,109
                """);

        // when
        List<Request> requests = ArrivalTrace.azure(csv, ArrivalTrace.TokenCost.defaults());

        // then times start at 0 in order, and work is 50 ms + 0.2 ms/prompt token + 20 ms/generated token
        assertThat(requests).extracting(Request::atMillis).containsExactly(0L, 4315L, 4542L);
        assertThat(requests.getFirst().serviceMillis()).isEqualTo(Math.round(50 + 0.2 * 374 + 20 * 44));
    }

    @Test
    void shouldNameTheColumnWhenATimestampIsNotATime() throws IOException {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "TIMESTAMP,ContextTokens,GeneratedTokens\nyesterday,1,1\n");

        assertThatThrownBy(() -> ArrivalTrace.azure(csv, ArrivalTrace.TokenCost.defaults()))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("TIMESTAMP").hasMessageContaining("bad.csv:2:");
    }

    @Test
    void shouldKeepTheDailyShapeWhenRateScaledByOverlayingWholeDays() {
        // given four days, each with arrivals only in its first hour (one a minute)
        List<Request> days = new ArrayList<>();
        for (int d = 0; d < 4; d++) {
            for (int m = 0; m < 60; m++) {
                days.add(new Request(d * DAY + m * 60_000L, 1_000));
            }
        }

        // when doubled and a day compressed into an hour
        List<Request> scaled = ArrivalTrace.scale(days, 24, 2, DAY);

        // then there are twice as many, still only in the first 1/24 of each (compressed) day
        assertThat(scaled).hasSize(480);
        assertThat(scaled).allSatisfy(r -> assertThat(r.atMillis() % (DAY / 24)).isLessThan(DAY / 24 / 24 + 1));
    }

    @Test
    void shouldKeepAnEvenShareWhenThinned() {
        List<Request> steady = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            steady.add(new Request(i * 100L, 1_000));
        }

        List<Request> quarter = ArrivalTrace.scale(steady, 1, 0.25, DAY);

        assertThat(quarter).hasSizeBetween(2_450, 2_550);
        // evenly spread: each tenth of the trace keeps about a quarter of its arrivals
        assertThat(quarter.stream().filter(r -> r.atMillis() < 100_000).count()).isBetween(230L, 270L);
    }

    @Test
    void shouldRefuseToOverlayMoreCopiesThanTheTraceHasDays() {
        List<Request> hour = List.of(new Request(0, 1_000), new Request(3_600_000, 1_000));

        assertThatThrownBy(() -> ArrivalTrace.scale(hour, 1, 4, DAY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--rate-scale");
    }
}
