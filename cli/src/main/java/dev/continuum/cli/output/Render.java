package dev.continuum.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/** Human-readable text for the engine's JSON shapes (runs, log entries, flows); one place so all commands agree. */
public final class Render {

    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Render() {}

    /** One log entry on one line: sequence, time, code, state, description. */
    public static String event(JsonNode entry) {
        String state = text(entry, "state_name");
        return String.format("%4d  %s  %-18s %s%s", entry.path("seq").asInt(), time(entry, "time"), text(entry, "code"),
                state.isEmpty() ? "" : "[" + state + "] ", text(entry, "description"));
    }

    /** The run as a short labelled block, ending with its error or output when it has finished. */
    public static List<String> run(JsonNode run) {
        List<String> lines = new ArrayList<>();
        lines.add("run      " + text(run, "run_id"));
        lines.add("status   " + text(run, "status"));
        lines.add("flow     " + text(run, "flow_id") + " (version " + run.path("flow_version").asInt() + ")");
        optional(lines, "label    ", text(run, "label"));
        optional(lines, "tags     ", strings(run.path("tags")));
        optional(lines, "started  ", time(run, "start_time"));
        optional(lines, "ended    ", time(run, "completion_time"));
        // runs linked by flow calls: the run (and its Action state) that started this one, the runs this one started
        String parent = text(run, "parent_run_id");
        optional(lines, "parent   ", parent.isEmpty() || text(run, "parent_state").isEmpty() ? parent
                : parent + " (state " + text(run, "parent_state") + ")");
        optional(lines, "children ", strings(run.path("child_run_ids")));
        JsonNode details = run.path("details");
        optional(lines, "waiting  ", text(details, "inactive_reason"));
        lines.addAll(outcome(run));
        return lines;
    }

    /** What a finished run produced: error and cause when it failed, the output document otherwise. */
    public static List<String> outcome(JsonNode run) {
        List<String> lines = new ArrayList<>();
        JsonNode details = run.path("details");
        String error = text(details, "error");
        String cause = text(details, "cause");
        if (!error.isEmpty()) {
            lines.add("error    " + (cause.isEmpty() ? error : error + ": " + cause));
        } else if (!cause.isEmpty()) {
            // A cancelled run has a cause (the reason given) but no error: nothing went wrong.
            lines.add("cause    " + cause);
        }
        JsonNode output = details.path("output");
        if (!output.isMissingNode() && !output.isNull()) {
            lines.add("output");
            pretty(output).lines().forEach(l -> lines.add("  " + l));
        }
        return lines;
    }

    public static List<String> runTable(JsonNode page) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-36s  %-9s  %-36s  %-20s  %s", "RUN ID", "STATUS", "FLOW ID", "STARTED", "LABEL"));
        for (JsonNode run : page.path("runs")) {
            lines.add(String.format("%-36s  %-9s  %-36s  %-20s  %s", text(run, "run_id"), text(run, "status"),
                    text(run, "flow_id"), time(run, "start_time"), text(run, "label")));
        }
        return lines;
    }

    public static List<String> flowTable(JsonNode page) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-36s  %7s  %-20s  %s", "FLOW ID", "VERSION", "UPDATED", "TITLE"));
        for (JsonNode flow : page.path("flows")) {
            lines.add(String.format("%-36s  %7d  %-20s  %s", text(flow, "id"), flow.path("version").asInt(),
                    time(flow, "updated_at"), text(flow, "title")));
        }
        return lines;
    }

    public static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    public static String compact(JsonNode node) {
        return node.toString();
    }

    public static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? "" : value.asText();
    }

    /** An engine timestamp to the second, still ISO 8601 UTC; the log's sequence numbers order what is finer. */
    public static String time(JsonNode node, String field) {
        String value = text(node, field);
        try {
            return Instant.parse(value).truncatedTo(ChronoUnit.SECONDS).toString();
        } catch (DateTimeParseException e) {
            return value;
        }
    }

    private static String strings(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).collect(Collectors.joining(", "));
    }

    private static void optional(List<String> lines, String label, String value) {
        if (!value.isEmpty()) {
            lines.add(label + value);
        }
    }
}
