package dev.continuum.cli;

import java.util.List;
import java.util.stream.Collectors;

/** Canned bodies shaped like the engine's views (flow-engine/service .../adapters/rest/Views.java), snake_case. */
final class EngineJson {

    static final String FLOW_ID = "6f0c1a52-3b1e-4c55-9d8e-1f2a3b4c5d6e";
    static final String RUN_ID = "0b7d2c9e-8a41-4f3b-a2c6-5e9d1f7a3b20";

    private EngineJson() {}

    static String flow(int version, String title) {
        return """
                {"id":"%s","version":%d,"title":"%s","subtitle":null,"description":null,"keywords":[],
                 "definition":{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}},"input_schema":{},
                 "roles":{},"created_by":"local","created_at":"2026-11-22T05:00:00Z","updated_at":"2026-11-22T05:00:00Z"}
                """.formatted(FLOW_ID, version, title);
    }

    static String run(String status, String details) {
        return """
                {"run_id":"%s","flow_id":"%s","flow_version":1,"status":"%s","label":"trial","tags":["a","b"],
                 "created_by":"local","start_time":"2026-11-22T05:00:01Z","completion_time":null,"details":%s}
                """.formatted(RUN_ID, FLOW_ID, status, details);
    }

    static String active() {
        return run("ACTIVE", "{\"output\":null,\"error\":null,\"cause\":null,\"inactive_reason\":null}");
    }

    static String succeeded(String output) {
        return run("SUCCEEDED", "{\"output\":" + output + ",\"error\":null,\"cause\":null,\"inactive_reason\":null}");
    }

    static String failed(String error, String cause) {
        return run("FAILED", "{\"output\":null,\"error\":\"" + error + "\",\"cause\":\"" + cause + "\",\"inactive_reason\":null}");
    }

    static String ended() {
        return run("ENDED", "{\"output\":null,\"error\":null,\"cause\":\"cancelled on request\",\"inactive_reason\":null}");
    }

    static String inactive(String reason) {
        return run("INACTIVE", "{\"output\":null,\"error\":null,\"cause\":null,\"inactive_reason\":\"" + reason + "\"}");
    }

    static String event(int seq, String code, String state, String description) {
        return """
                {"seq":%d,"code":"%s","state_name":%s,"description":"%s","details":null,"time":"2026-11-22T05:00:%02dZ"}
                """.formatted(seq, code, state == null ? "null" : "\"" + state + "\"", description, seq).strip();
    }

    static String log(List<String> entries, boolean more) {
        Integer marker = entries.isEmpty() ? null : entries.size();
        return "{\"run_id\":\"" + RUN_ID + "\",\"entries\":[" + String.join(",", entries) + "],\"has_next_page\":" + more
                + ",\"marker\":" + marker + "}";
    }

    /** A Globus-shaped list page: the items under {@code key} ("flows" or "runs"), a marker when more follow. */
    static String page(String key, List<String> items, boolean more) {
        return "{\"" + key + "\":[" + items.stream().collect(Collectors.joining(",")) + "],\"limit\":100,\"has_next_page\":"
                + more + (more ? ",\"marker\":\"m-1\"" : "") + "}";
    }

    static String invalidFlowProblem() {
        return """
                {"type":"https://continuum.dev/problems/invalid","title":"Invalid flow","status":400,
                 "detail":"2 problem(s) found; see errors.",
                 "errors":[{"pointer":"/title","message":"A flow needs a title."},
                           {"pointer":"/definition/States/Fetch/Next","message":"'Analyse' is referenced but not defined in States."}]}
                """;
    }

    static String runNotFoundProblem(String id) {
        return """
                {"type":"https://continuum.dev/problems/not-found","title":"Run not found","status":404,
                 "detail":"No run with id '%s' exists.","errors":[]}
                """.formatted(id);
    }
}
