package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TraceReadersTest {
    static Path fixture(String name) {
        try {
            return Path.of(Objects.requireNonNull(TraceReadersTest.class.getResource("/fixtures/" + name)).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Job> readAll(TraceReader r) {
        List<Job> out = new ArrayList<>();
        try (r) {
            r.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void shouldReadTheContinuumFormatWithFractionalGpusAndPartitions() {
        List<Job> jobs = readAll(new ContinuumTraceReader(fixture("tiny.csv"), false));

        assertThat(jobs).extracting(Job::id).containsExactly("j1", "j2", "j3");
        assertThat(jobs.get(2).demand().fractional()).isTrue();
        assertThat(jobs.get(2).demand().gpuMilli()).isEqualTo(500);
        assertThat(jobs.get(1).partition()).isEqualTo("b");
        assertThat(TraceFormat.detect(fixture("tiny.csv"))).isEqualTo(TraceFormat.CONTINUUM);
    }

    @Test
    void shouldNameFileLineAndColumnOfABadNumber() {
        ContinuumTraceReader r = new ContinuumTraceReader(fixture("bad-number.csv"), false);

        assertThatThrownBy(() -> readAll(r))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageEndingWith("bad-number.csv:3:4: column 'arrival' must be a number, was 'ten'");
    }

    @Test
    void shouldReportATruncatedLine() {
        assertThatThrownBy(() -> readAll(new ContinuumTraceReader(fixture("truncated.csv"), false)))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("truncated.csv:3:")
                .hasMessageContaining("line ends before column 'gpus'");
    }

    @Test
    void shouldSkipAndCountBadLinesWhenAsked() {
        ContinuumTraceReader r = new ContinuumTraceReader(fixture("bad-number.csv"), true);
        List<Job> jobs = readAll(r);

        assertThat(jobs).extracting(Job::id).containsExactly("j1", "j3");
        assertThat(r.skippedLines()).isEqualTo(1);
    }

    @Test
    void shouldReadOpenbPodsWithSharesModelsAndRunTimeFromScheduling() {
        List<Job> pods = readAll(new OpenbPodReader(fixture("openb-pods.csv"), false));

        assertThat(pods).hasSize(4);
        Job shared = pods.get(1);
        assertThat(shared.demand().gpuMilli()).isEqualTo(460);
        assertThat(shared.demand().gpuModels()).containsExactlyInAnyOrder("V100M16", "V100M32");
        assertThat(shared.arrival()).isEqualTo(5);
        assertThat(shared.duration()).isEqualTo(495);
        assertThat(pods.get(0).preemptible()).as("latency-sensitive pods are not preemptible").isFalse();
        assertThat(pods.get(3).demand().gpus()).isEqualTo(8);
    }

    @Test
    void shouldRejectAMultiGpuPodWithAFractionalShare() {
        assertThatThrownBy(() -> readAll(new OpenbPodReader(fixture("openb-pods-bad.csv"), false)))
                .hasMessageEndingWith("openb-pods-bad.csv:3:20: a pod with 2 GPUs cannot share them (gpu_milli 460)");
    }

    @Test
    void shouldReadOpenbNodesIntoRacks() {
        Cluster c = ClusterReader.read(fixture("openb-nodes.csv"), 2);

        assertThat(c.totalGpus()).isEqualTo(10);
        assertThat(c.nodes().get(1).gpuModel()).isEqualTo("V100M32");
        assertThat(c.nodes()).extracting(n -> n.rack()).containsExactly("rack-0", "rack-0", "rack-1");
    }

    @Test
    void shouldReadHeliosJobsWithVirtualClustersAndLeaveOutCpuJobs() {
        HeliosTraceReader r = new HeliosTraceReader(fixture("helios.csv"), false);
        List<Job> jobs = readAll(r);

        assertThat(jobs).extracting(Job::id).containsExactly("1", "3");
        assertThat(jobs.get(0).partition()).isEqualTo("vcA");
        assertThat(jobs.get(0).duration()).isEqualTo(3600);
        assertThat(jobs.get(1).arrival() - jobs.get(0).arrival()).isEqualTo(60);
        assertThat(r.filteredRecords()).isEqualTo(1);
    }

    @Test
    void shouldPointAtABadHeliosTime() {
        assertThatThrownBy(() -> readAll(new HeliosTraceReader(fixture("helios-bad-time.csv"), false)))
                .hasMessageContaining("helios-bad-time.csv:3:26: column 'submit_time' must be epoch seconds or yyyy-MM-dd HH:mm:ss");
    }

    @Test
    void shouldReadPhillyJobsSortedBySubmissionWithGpusFromTheFirstAttempt() {
        List<Job> jobs = readAll(TraceFormat.PHILLY.open(fixture("philly.json"), false));

        assertThat(jobs).extracting(Job::id).containsExactly("application_0", "application_1");
        assertThat(jobs.get(1).demand().gpus()).isEqualTo(4);
        assertThat(jobs.get(0).duration()).as("first attempt start to last attempt end").isEqualTo(1800);
        assertThat(TraceFormat.detect(fixture("philly.json"))).isEqualTo(TraceFormat.PHILLY);
    }

    @Test
    void shouldLocateABadPhillyRecordAndStopAtTruncatedJson() {
        assertThatThrownBy(() -> readAll(new PhillyTraceReader(fixture("philly-bad.json"), false)))
                .hasMessageContaining("philly-bad.json:4:2: field 'submitted_time' must be a time");

        PhillyTraceReader skipping = new PhillyTraceReader(fixture("philly-bad.json"), true);
        List<Job> jobs = readAll(skipping);
        assertThat(jobs).extracting(Job::id).containsExactly("application_1", "application_4");
        assertThat(skipping.skippedLines()).as("one bad record and the truncated tail").isEqualTo(2);
    }

    @Test
    void shouldRefuseAnUnknownHeader() {
        assertThatThrownBy(() -> TraceFormat.detect(fixture("openb-nodes.csv")))
                .hasMessageContaining("cannot tell the trace format");
    }

    @Test
    void shouldAcceptAGpuModelListedTwiceWhenReadingOpenbPods() {
        List<Job> pods = readAll(new OpenbPodReader(fixture("openb-pods-repeats.csv"), false));

        assertThat(pods).extracting(Job::id).containsExactly("pod-a", "pod-c");
        assertThat(pods.get(0).demand().gpuModels()).containsExactlyInAnyOrder("V100M16", "V100M32");
        assertThat(pods.get(1).demand().gpuModels()).containsExactlyInAnyOrder("G2", "T4");
    }

    @Test
    void shouldLeaveOutAndCountPodsTheTraceNeverScheduled() {
        OpenbPodReader r = new OpenbPodReader(fixture("openb-pods-repeats.csv"), false);
        List<Job> pods = readAll(r);

        assertThat(pods).extracting(Job::id).doesNotContain("pod-b");
        assertThat(r.filteredRecords()).isEqualTo(1);
        assertThat(pods.get(0).duration()).isEqualTo(897); // runs from scheduling (3), not creation, to deletion
    }

    @Test
    void shouldAcceptAGpuModelListedTwiceInTheContinuumFormat(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        Path f = dir.resolve("t.csv");
        java.nio.file.Files.writeString(f, "id,arrival,duration,gpus,gpu_model\nj1,0,10,1,A100|A100|H100\n");

        List<Job> jobs = readAll(new ContinuumTraceReader(f, false));

        assertThat(jobs.getFirst().demand().gpuModels()).containsExactlyInAnyOrder("A100", "H100");
    }
}
