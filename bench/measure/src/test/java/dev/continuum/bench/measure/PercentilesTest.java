package dev.continuum.bench.measure;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class PercentilesTest {

    @Test
    void shouldReportObservedValuesByNearestRank() {
        List<Double> oneToHundred = IntStream.rangeClosed(1, 100).mapToObj(i -> (double) i).toList();

        Percentiles p = Percentiles.of(oneToHundred);

        assertThat(p.p50()).isEqualTo(50.0);
        assertThat(p.p99()).isEqualTo(99.0);
        assertThat(p.p95()).isEqualTo(95.0);
        assertThat(p.max()).isEqualTo(100.0);
        assertThat(p.count()).isEqualTo(100);
    }

    @Test
    void shouldNotDependOnInputOrder() {
        assertThat(Percentiles.of(List.of(9.0, 1.0, 5.0)).p50()).isEqualTo(5.0);
    }

    @Test
    void shouldReportNothingForAnEmptySample() {
        assertThat(Percentiles.of(List.of()).p50()).isNaN();
    }
}
