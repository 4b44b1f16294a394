package dev.continuum.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code continuum placement explain}: the planner's decision log about a job or a run, in words or as JSON. */
class PlacementCommandTest {

    private static final String PLACED = """
            {"seq": 1, "id": "act-1", "runId": "run-7", "kind": "inference", "status": "placed", "site": "gw-1",
             "at": "2026-11-25T12:00:00Z", "cause": "request",
             "decision": {"type": "placed", "requestId": "act-1",
               "chosen": {"site": "gw-1", "target": "gw-1", "gpus": 1, "score": 676.0,
                          "latency": {"transferMillis": 0, "queueMillis": 624, "computeMillis": 52},
                          "explanation": "676 ms = transfer 0 ms (19.1 MiB already here) + queue 624 ms + compute 52 ms"},
               "predictedStartMillis": 1800000001624, "predictedFinishMillis": 1800000001676,
               "reasons": ["gw-1: predicted 676 ms, the fastest of 2 sites that can run resnet"],
               "alternatives": [{"site": "dc-pool", "target": "dc-pool", "gpus": 1, "score": 1770.0,
                                 "latency": {"transferMillis": 1620, "queueMillis": 50, "computeMillis": 100},
                                 "explanation": "1770 ms = transfer 1620 ms (19.1 MiB from gw-1 at 100.0 Mbit/s configured) + queue 50 ms + compute 100 ms"}]}}""";

    private static final String AGAIN = """
            {"seq": 9, "id": "act-1", "runId": "run-7", "kind": "inference", "status": "placed", "site": "dc-pool",
             "at": "2026-11-25T12:00:05Z", "cause": "inventory",
             "decision": {"type": "placed", "requestId": "act-1",
               "chosen": {"site": "dc-pool", "target": "dc-pool", "gpus": 1, "score": 1770.0,
                          "latency": {"transferMillis": 1620, "queueMillis": 50, "computeMillis": 100}, "explanation": ""},
               "predictedStartMillis": 1800000006670, "predictedFinishMillis": 1800000006770,
               "reasons": ["placed again: gw-1 went offline before the job finished"], "alternatives": []}}""";

    private static final String NOWHERE = """
            {"seq": 12, "id": "act-2", "kind": "inference", "status": "unplaceable", "at": "2026-11-25T12:01:00Z",
             "cause": "request", "decision": {"type": "unplaceable", "requestId": "act-2",
               "reasonBySite": {"gw-1": "offline", "dc-pool": "model bert is not loaded (it has [resnet])"}}}""";

    private FakeEngine planner;

    @BeforeEach
    void start() throws IOException {
        planner = new FakeEngine();
    }

    @AfterEach
    void stop() {
        planner.close();
    }

    @Test
    void shouldExplainWhereAJobRanAndWhyThroughEveryPage() {
        planner.on("GET", "/placements", request -> request.query().containsKey("marker")
                ? FakeEngine.Response.json(200, "{\"placements\": [" + AGAIN + "]}")
                : FakeEngine.Response.json(200, "{\"placements\": [" + PLACED + "], \"marker\": \"1\"}"));

        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "act-1");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("act-1 (inference, run run-7)",
                "2026-11-25T12:00:00Z  request -> placed on gw-1 (gw-1, 1 GPU)",
                "predicted 676 ms = transfer 0 + queue 624 + compute 52 ms",
                "- gw-1: predicted 676 ms, the fastest of 2 sites that can run resnet",
                "alternative dc-pool: 1770 ms = transfer 1620 ms (19.1 MiB from gw-1 at 100.0 Mbit/s configured)",
                "2026-11-25T12:00:05Z  inventory -> placed on dc-pool (dc-pool, 1 GPU)",
                "- placed again: gw-1 went offline before the job finished");
        assertThat(planner.requests()).filteredOn(r -> r.path().equals("/placements"))
                .extracting(r -> r.query().get("subject")).containsOnly("act-1");
    }

    @Test
    void shouldSayWhatArrivalsThePlannerExpectsAtTheSitesTheJobWentTo() {
        planner.on("GET", "/placements", 200, "{\"placements\": [" + PLACED + "]}");
        planner.on("GET", "/forecasts", request -> FakeEngine.Response.json(200, request.query().get("site").equals("gw-1")
                ? """
                {"forecasts": [{"model": "resnet", "site": "gw-1", "horizonSeconds": 300, "rate": 0.5, "lower": 0.4,
                  "upper": 0.6, "method": "holt-winters", "smape": 0.12, "coverage": 0.91, "scored": 120, "lastRate": 0.45}]}"""
                : "{\"forecasts\": []}"));

        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "act-1");

        assertThat(result.out()).contains("Arrivals expected at gw-1 (planner forecasts):",
                "resnet in 5 min: 0.500 jobs/s (0.400-0.600); last minute 0.450/s; holt-winters, sMAPE 0.12, "
                        + "91 % of 120 recent intervals held the rate");
    }

    @Test
    void shouldNameWhatRuledOutEachSite() {
        planner.on("GET", "/placements", 200, "{\"placements\": [" + NOWHERE + "]}");

        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "act-2");

        assertThat(result.out()).contains("request -> unplaceable", "- gw-1: offline",
                "- dc-pool: model bert is not loaded (it has [resnet])");
    }

    @Test
    void shouldPrintThePlannersJsonWithOutputJson() throws IOException {
        planner.on("GET", "/placements", 200, "{\"placements\": [" + PLACED + "," + AGAIN + "]}");

        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "run-7", "--output", "json");

        JsonNode printed = FakeEngine.JSON.readTree(result.out());
        assertThat(printed.at("/placements/0/decision/chosen/site").asText()).isEqualTo("gw-1");
        assertThat(printed.at("/placements/1/site").asText()).isEqualTo("dc-pool");
    }

    @Test
    void shouldSayWhenThePlannerKnowsNothingAboutIt() {
        planner.on("GET", "/placements", 200, "{\"placements\": []}");

        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "nope");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).contains("The planner has no decision about nope.");
    }

    @Test
    void shouldRefuseAnUnknownOutputFormat() {
        Cli.Result result = Cli.run("placement", "--planner", planner.api(), "explain", "x", "--output", "yaml");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("--output must be text or json");
    }
}
