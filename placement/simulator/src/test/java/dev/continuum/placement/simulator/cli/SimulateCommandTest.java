package dev.continuum.placement.simulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.continuum.placement.core.planner.trace.RecordedSession;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

class SimulateCommandTest {
    private static String fixture(String name) {
        try {
            return Path.of(Objects.requireNonNull(SimulateCommandTest.class.getResource("/fixtures/" + name)).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new SimulateCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void shouldCompareSeveralPoliciesAndWriteASelfContainedReport(@TempDir Path dir) throws Exception {
        Run r = run("--synthetic", "2000", "--cluster", "synthetic:nodes=16,gpus=8,rack=4", "--policy", "fifo,sjf,las",
                "--out", dir.toString(), "--quiet");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("fifo").contains("sjf").contains("las").contains("avg JCT");
        String html = Files.readString(dir.resolve("report.html"));
        assertThat(html).contains("<svg").contains("JCT CDF").contains("Queue length").contains("Fragmented GPUs");
        assertThat(html).doesNotContain("<script").doesNotContain("src=\"http").doesNotContain("href=\"http");
        assertThat(Files.readString(dir.resolve("metrics.csv")).lines()).hasSize(4);
        assertThat(Files.readString(dir.resolve("metrics.json"))).contains("\"jct_p99_s\"").contains("\"series\"");
        assertThat(dir.resolve("series.csv")).exists();
    }

    @Test
    void shouldStopWithTheLocationOfABadLineAndWriteNoReport(@TempDir Path dir) {
        Run r = run("--trace", fixture("bad-number.csv"), "--cluster", "synthetic:nodes=2", "--policy", "fifo,sjf",
                "--out", dir.toString(), "--quiet");

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("bad-number.csv:3:4: column 'arrival' must be a number").contains("--skip-bad-lines");
        assertThat(dir.resolve("report.html")).doesNotExist();
    }

    @Test
    void shouldSkipBadLinesWhenAskedAndSayHowMany(@TempDir Path dir) {
        Run r = run("--trace", fixture("bad-number.csv"), "--cluster", "synthetic:nodes=2", "--policy", "fifo",
                "--out", dir.toString(), "--skip-bad-lines", "--quiet");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("skipped 1 malformed trace lines");
    }

    @Test
    void shouldCountSkippedLinesOnceWhenSeveralPoliciesShareOneReadOfTheTrace(@TempDir Path dir) throws Exception {
        Run r = run("--trace", fixture("bad-number.csv"), "--cluster", "synthetic:nodes=2", "--policy", "fifo,sjf,las",
                "--out", dir.toString(), "--skip-bad-lines", "--quiet");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("skipped 1 malformed trace lines");
        java.util.List<String> rows = Files.readAllLines(dir.resolve("metrics.csv"));
        int skipped = java.util.Arrays.asList(rows.getFirst().split(",")).indexOf("skipped_lines");
        assertThat(rows.subList(1, rows.size())).hasSize(3).allSatisfy(row -> assertThat(row.split(",")[skipped]).isEqualTo("1"));
    }

    @Test
    void shouldWriteTheSyntheticJobsSoThatReplayingTheFileGivesTheSameResults(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("jobs.csv");
        Run written = run("--synthetic", "800", "--cluster", "synthetic:nodes=8,gpus=8,rack=4", "--write-trace", trace.toString());
        Run generated = run("--synthetic", "800", "--cluster", "synthetic:nodes=8,gpus=8,rack=4", "--policy", "fifo,sjf,srtf",
                "--out", dir.resolve("generated").toString(), "--quiet");
        Run replayed = run("--trace", trace.toString(), "--cluster", "synthetic:nodes=8,gpus=8,rack=4", "--policy", "fifo,sjf,srtf",
                "--out", dir.resolve("replayed").toString(), "--quiet");

        assertThat(written.exit()).isZero();
        assertThat(written.out()).contains("wrote 800 jobs");
        assertThat(Files.readAllLines(trace)).hasSize(801).first().asString().startsWith("id,arrival,duration,gpus");
        assertThat(generated.exit()).isZero();
        assertThat(replayed.exit()).isZero();
        assertThat(withoutWallTime(dir.resolve("replayed/metrics.csv")))
                .isEqualTo(withoutWallTime(dir.resolve("generated/metrics.csv")))
                .hasSize(4);
    }

    @Test
    void shouldRefuseToWriteATraceThatIsAlreadyAFile(@TempDir Path dir) {
        Run r = run("--trace", fixture("bad-number.csv"), "--cluster", "synthetic:nodes=2", "--write-trace",
                dir.resolve("x.csv").toString());

        assertThat(r.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err()).contains("--write-trace needs --synthetic");
    }

    /** metrics.csv rows without the wall and CPU time columns, the only ones that may differ between runs. */
    private static java.util.List<String> withoutWallTime(Path csv) throws java.io.IOException {
        java.util.List<String> lines = Files.readAllLines(csv);
        java.util.List<String> header = java.util.Arrays.asList(lines.getFirst().split(","));
        int wall = header.indexOf("wall_ms");
        int cpu = header.indexOf("cpu_ms");
        return lines.stream().map(l -> {
            String[] cells = l.split(",", -1);
            java.util.List<String> kept = new java.util.ArrayList<>();
            for (int i = 0; i < cells.length; i++) {
                if (i != wall && i != cpu) {
                    kept.add(cells[i]);
                }
            }
            return String.join(",", kept);
        }).toList();
    }

    @Test
    void shouldRefuseAnUnknownPolicyBeforeDoingAnyWork(@TempDir Path dir) {
        Run r = run("--synthetic", "10", "--cluster", "synthetic:nodes=2", "--policy", "fifo,bogus", "--out", dir.toString());

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("unknown policy part 'bogus'");
    }

    @Test
    void shouldWriteMetricsAndSeriesFilesWhenRunningTheFillExperiment(@TempDir Path dir) throws Exception {
        Run r = run("--fill", "--trace", fixture("openb-pods.csv"), "--cluster", fixture("openb-nodes.csv"),
                "--policy", "bestfit-weighted,fgd", "--fill-repetitions", "1", "--out", dir.toString(), "--quiet");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(dir.resolve("metrics.csv")).lines()).hasSize(3);
        assertThat(Files.readString(dir.resolve("metrics.json"))).contains("\"unallocated_gpus\"");
        assertThat(Files.readString(dir.resolve("series.csv"))).contains("fgd,unallocated_gpus,");
        assertThat(dir.resolve("report.html")).exists();
    }

    @Test
    void shouldSayWhichResourceRanOutForTheTasksAFillRunDropped(@TempDir Path dir) throws Exception {
        Run r = run("--fill", "--trace", fixture("openb-fill-pods.csv"), "--cluster", fixture("openb-fill-nodes.csv"),
                "--policy", "fgd", "--fill-repetitions", "1", "--out", dir.toString(), "--quiet");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("dropped tasks because out of").containsPattern("fgd .*(gpu_share|whole_gpu|cpu) [1-9][0-9]* \\([0-9]+ GPUs\\)");
        assertThat(Files.readString(dir.resolve("metrics.csv")).lines().findFirst().orElseThrow())
                .contains("dropped_gpu_share_mean,dropped_whole_gpu_mean,dropped_cpu_mean,dropped_memory_mean,dropped_gpu_model_mean");
        assertThat(Files.readString(dir.resolve("metrics.json"))).contains("\"dropped_by_resource\"");
        assertThat(Files.readString(dir.resolve("series.csv"))).contains("fgd,dropped_whole_gpu,");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("Dropped tasks by exhausted resource: fgd")
                .contains("<svg");
    }

    @Test
    void shouldLineUpTheFillTableWhenAPolicyNameIsLong(@TempDir Path dir) {
        Run r = run("--fill", "--trace", fixture("openb-pods.csv"), "--cluster", fixture("openb-nodes.csv"),
                "--policy", "bestfit-weighted,fgd", "--fill-repetitions", "1", "--out", dir.toString(), "--quiet");

        java.util.List<String> rows = r.out().lines().filter(l -> l.startsWith("placement") || l.startsWith("fgd ")
                || l.startsWith("bestfit-weighted ")).toList();
        assertThat(rows).hasSize(3);
        assertThat(rows).extracting(l -> l.indexOf("unalloc@90%") >= 0 ? l.indexOf("unalloc@90%") + "unalloc@90%".length()
                : l.indexOf('.') + 2).containsOnly(rows.getFirst().indexOf("unalloc@90%") + "unalloc@90%".length());
    }

    @Test
    void shouldSaySkippedLinesInAFillRun(@TempDir Path dir) {
        Run r = run("--fill", "--trace", fixture("openb-pods-bad.csv"), "--cluster", fixture("openb-nodes.csv"),
                "--policy", "bestfit", "--fill-repetitions", "1", "--skip-bad-lines", "--out", dir.toString(), "--quiet");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("skipped [1-9][0-9]* malformed trace lines");
    }

    @Test
    void shouldPrintHelpWithoutPicocliWarnings() {
        // picocli reports a bad format string in a description on System.err, not the command's writer
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        Run r;
        try {
            System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
            r = run("--help");
        } finally {
            System.setErr(original);
        }

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--fill-up-to").contains("% of GPUs");
        assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8) + r.err()).doesNotContain("WARN");
    }

    @Test
    void shouldCompareInferencePoliciesOnAnEdgeAndDatacenterTopology() {
        Run r = run("--topology", fixture("continuum-topology.json"), "--jobs", "1500", "--rate", "30", "--seed", "13");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("(3 sites, 3 links)").contains("1,500 jobs")
                .contains("planner").contains("edge-only").contains("datacenter-only").contains("round-robin")
                .contains("least-loaded").contains("prediction error");
        // the planner moves data off the slow gateway only when that pays: it has the lowest p95
        assertThat(r.out()).containsPattern("ranking by p95: planner < ");
    }

    @Test
    void shouldReplayAWorkloadFileOnATopology() {
        Run r = run("--topology", fixture("continuum-topology.json"), "--workload", fixture("continuum-workload.csv"));

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("4 jobs over 0.0 s").contains("ranking by p95:");
    }

    @Test
    void shouldNameEveryBadFieldOfATopologyAndRunNothing() {
        Run r = run("--topology", fixture("continuum-topology-bad.json"), "--jobs", "10");

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("continuum-topology-bad.json: 7 problems")
                .contains("sites[0].colour: unknown field")
                .contains("sites[1].kind: must be edge or datacenter, was \"cloud\"")
                .contains("sites[1].gpus: must be a whole number ≥ 1 (GPU workers, one task each), was 0")
                .contains("sites[1].computeMillis.resnet: must be a number of milliseconds > 0, was -2")
                .contains("links[0].to: unknown site 'dc-pool'")
                .contains("links[0].bandwidthGbps: must be a number > 0 (Gbit/s), was 0")
                .contains("endpoints.ep-x: must name a site [gw-1, dc], was \"nowhere\"");
        assertThat(r.out()).doesNotContain("ranking");
    }

    @Test
    void shouldStopAtTheLocationOfABadWorkloadLine() {
        Run r = run("--topology", fixture("continuum-topology.json"), "--workload", fixture("continuum-workload-bad.csv"));

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("continuum-workload-bad.csv:3:24: column 'bytes' must be a whole number, was '2e5'");
    }

    @Test
    void shouldRefuseATopologyRunWithoutJobs() {
        Run r = run("--topology", fixture("continuum-topology.json"));

        assertThat(r.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err()).contains("exactly one of --workload FILE or --jobs N");
    }

    @Test
    void shouldReplayAPlannerTraceAndSayEveryDecisionIsReproduced(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("planner.jsonl"), RecordedSession.record(300));

        Run r = run("--planner-trace", trace.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("recorded under policy las+fgd").contains("las+fgd (recorded)")
                .contains("every decision identical").containsPattern("placed per site under las\\+fgd: \\{.*hpc=\\d+");
    }

    @Test
    void shouldReplayAPlannerTracesInputsUnderOtherPolicies(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("planner.jsonl"), RecordedSession.record(300));

        Run r = run("--planner-trace", trace.toString(), "--policy", "las+fgd,fifo+worstfit");

        assertThat(r.exit()).as(r.err()).isZero();
        // the recorded policy is replayed once; the other one decides differently on the same inputs
        assertThat(r.out().lines().filter(l -> l.startsWith("las+fgd"))).hasSize(1);
        String whatIf = r.out().lines().filter(l -> l.startsWith("fifo+worstfit")).findFirst().orElseThrow();
        assertThat(Long.parseLong(whatIf.substring(whatIf.lastIndexOf(' ') + 1))).isPositive();
    }

    @Test
    void shouldFailWhenAPlannerTraceNoLongerReplaysAsRecorded(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("planner.jsonl"), RecordedSession.record(100)
                .replaceFirst("\"policy\":\"las\\+fgd\"", "\"policy\":\"fifo+worstfit\""));

        Run r = run("--planner-trace", trace.toString());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).containsPattern("DIFFERS in \\d+ answers?:").containsPattern("line \\d+: recorded");
    }

    @Test
    void shouldRefuseAFileThatIsNotAPlannerTrace(@TempDir Path dir) throws Exception {
        Path notATrace = Files.writeString(dir.resolve("jobs.csv"), "id,at_ms,model\n1,0,resnet\n");

        Run r = run("--planner-trace", notATrace.toString());

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("jobs.csv").contains("not a planner trace line");
    }
    @Test
    void shouldCompareScalingPoliciesAndWriteTheTimelineWhenGivenArrivals(@TempDir Path dir) throws Exception {
        // given ten minutes of Azure-format requests: 1 a second, then 4 a second
        StringBuilder csv = new StringBuilder("TIMESTAMP,ContextTokens,GeneratedTokens\n");
        for (int ms = 0; ms < 600_000; ms += ms < 300_000 ? 1_000 : 250) {
            csv.append(String.format("2023-11-16 18:%02d:%02d.%03d0000,500,40%n", 10 + ms / 60_000, ms / 1000 % 60,
                    ms % 1000));
        }
        Path arrivals = dir.resolve("azure.csv");
        Files.writeString(arrivals, csv);

        // when
        Run r = run("--arrivals", arrivals.toString(), "--out", dir.resolve("out").toString());

        // then one row per policy, and the rate, forecast and capacity of each over time
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("1500 requests").contains("predictive").contains("reactive-hpa").contains("fixed:")
                .contains("SLO met").contains("worker-s").contains("cold starts");
        var timeline = Files.readAllLines(dir.resolve("out/scaling-timeline.csv"));
        assertThat(timeline.getFirst()).isEqualTo("policy,time_s,rate,forecast,forecast_lower,forecast_upper,workers,ready,capacity_rate");
        assertThat(timeline).anyMatch(l -> l.startsWith("predictive,600.000,"))
                .anyMatch(l -> l.startsWith("reactive-hpa,600.000,"));
        assertThat(Files.readString(dir.resolve("out/scaling-decisions.csv"))).contains("predictive,").contains("cold start");
        assertThat(Files.readString(dir.resolve("out/scaling.html"))).contains("<svg")
                .contains("predictive: rate, forecast and capacity").doesNotContain("<script");
    }

    @Test
    void shouldNameTheOptionWhenTheRateScaleIsNotPositive(@TempDir Path dir) throws Exception {
        Path arrivals = dir.resolve("azure.csv");
        Files.writeString(arrivals, "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,374,44\n");

        Run r = run("--arrivals", arrivals.toString(), "--rate-scale", "0", "--out", dir.toString());

        assertThat(r.exit()).isEqualTo(SimulateCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("--rate-scale");
    }
}
