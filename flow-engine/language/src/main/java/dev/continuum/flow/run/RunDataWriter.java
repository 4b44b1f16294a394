package dev.continuum.flow.run;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link RunData} field by field: the document Jackson's bean serialisation gives (same fields, order and
 * values; null fields and null map values left out, null list items kept), without reflection. On JDK 25 every
 * reflective field read goes through a method handle, and a run's state is written on every commit: that was the
 * engine's largest single CPU cost (issue 17). A new field of RunData must be written here too;
 * {@code RunDataWriterTest} compares this writer with the bean serialisation on states that use every field.
 */
final class RunDataWriter extends StdSerializer<RunData> {

    RunDataWriter() {
        super(RunData.class);
    }

    @Override
    public void serialize(RunData d, JsonGenerator g, SerializerProvider p) throws IOException {
        g.writeStartObject();
        string(g, "runId", d.runId);
        string(g, "flowId", d.flowId);
        g.writeNumberField("flowVersion", d.flowVersion);
        string(g, "userId", d.userId);
        string(g, "label", d.label);
        strings(g, "tags", d.tags);
        strings(g, "notifyOn", d.notifyOn);
        string(g, "notifyEmail", d.notifyEmail);
        name(g, "status", d.status);
        g.writeNumberField("attempt", d.attempt);
        string(g, "failedState", d.failedState);
        node(g, p, "failedInput", d.failedInput);
        node(g, p, "output", d.output);
        string(g, "error", d.error);
        string(g, "cause", d.cause);
        string(g, "inactiveReason", d.inactiveReason);
        counts(g, "visits", d.visits);
        g.writeNumberField("transitions", d.transitions);
        if (d.branches != null) {
            g.writeObjectFieldStart("branches");
            for (Map.Entry<String, RunData.Branch> e : d.branches.entrySet()) {
                if (e.getValue() != null) { // null map values are left out, as the inclusion setting does
                    g.writeFieldName(e.getKey());
                    branch(g, p, e.getValue());
                }
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void branch(JsonGenerator g, SerializerProvider p, RunData.Branch b) throws IOException {
        g.writeStartObject();
        string(g, "id", b.id);
        string(g, "parent", b.parent);
        g.writeNumberField("index", b.index);
        string(g, "stateName", b.stateName);
        node(g, p, "data", b.data);
        g.writeNumberField("visit", b.visit);
        g.writeNumberField("attempt", b.attempt);
        counts(g, "retriesUsed", b.retriesUsed);
        if (b.waiting != null) {
            g.writeFieldName("waiting");
            waiting(g, p, b.waiting);
        }
        g.writeEndObject();
    }

    private static void waiting(JsonGenerator g, SerializerProvider p, RunData.Waiting w) throws IOException {
        g.writeStartObject();
        name(g, "kind", w.kind);
        string(g, "token", w.token);
        instant(g, "at", w.at);
        if (w.action != null) {
            g.writeFieldName("action");
            action(g, p, w.action);
        }
        if (w.join != null) {
            g.writeFieldName("join");
            join(g, p, w.join);
        }
        g.writeEndObject();
    }

    private static void action(JsonGenerator g, SerializerProvider p, RunData.ActionCall a) throws IOException {
        g.writeStartObject();
        string(g, "requestId", a.requestId);
        string(g, "actionUrl", a.actionUrl);
        node(g, p, "body", a.body);
        string(g, "runAs", a.runAs);
        string(g, "actionScope", a.actionScope);
        string(g, "actionId", a.actionId);
        string(g, "status", a.status);
        string(g, "displayStatus", a.displayStatus);
        instant(g, "deadline", a.deadline);
        g.writeNumberField("polls", a.polls);
        instant(g, "nextPollAt", a.nextPollAt);
        g.writeBooleanField("inactive", a.inactive);
        g.writeEndObject();
    }

    private static void join(JsonGenerator g, SerializerProvider p, RunData.Join j) throws IOException {
        g.writeStartObject();
        g.writeNumberField("total", j.total);
        g.writeNumberField("started", j.started);
        g.writeNumberField("finished", j.finished);
        node(g, p, "input", j.input);
        nodes(g, p, "items", j.items);
        nodes(g, p, "results", j.results);
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, String field, String value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value);
        }
    }

    private static void name(JsonGenerator g, String field, Enum<?> value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value.name());
        }
    }

    /** As the time module writes an {@link Instant} with timestamps off: ISO-8601 ({@link Instant#toString()}). */
    private static void instant(JsonGenerator g, String field, Instant value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value.toString());
        }
    }

    private static void node(JsonGenerator g, SerializerProvider p, String field, JsonNode value) throws IOException {
        if (value != null) {
            g.writeFieldName(field);
            value.serialize(g, p);
        }
    }

    private static void strings(JsonGenerator g, String field, List<String> values) throws IOException {
        if (values != null) {
            g.writeArrayFieldStart(field);
            for (String value : values) {
                g.writeString(value);
            }
            g.writeEndArray();
        }
    }

    private static void nodes(JsonGenerator g, SerializerProvider p, String field, List<JsonNode> values) throws IOException {
        if (values != null) {
            g.writeArrayFieldStart(field);
            for (JsonNode value : values) {
                if (value == null) {
                    g.writeNull();
                } else {
                    value.serialize(g, p);
                }
            }
            g.writeEndArray();
        }
    }

    private static void counts(JsonGenerator g, String field, Map<String, Integer> values) throws IOException {
        if (values != null) {
            g.writeObjectFieldStart(field);
            for (Map.Entry<String, Integer> e : values.entrySet()) {
                if (e.getValue() != null) {
                    g.writeNumberField(e.getKey(), e.getValue());
                }
            }
            g.writeEndObject();
        }
    }
}
