package dev.continuum.bench.measure;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCpuTest {

    @Test
    void shouldAddUserAndSystemTicksEvenWhenTheNameHasSpacesAndParentheses() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 40 0 123 0 0";

        assertThat(ProcessCpu.parse(stat)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void shouldReportNothingForAProcessThatIsNotThere() {
        assertThat(ProcessCpu.used(-1)).isEmpty();
    }
}
