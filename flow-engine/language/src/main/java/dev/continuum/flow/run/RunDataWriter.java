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

    /** How a field's value is written after its name; called for a value that is not null. */
    @FunctionalInterface
    private interface Value<T> {
        void write(JsonGenerator g, SerializerProvider p, T value) throws IOException;
    }

    private static final Value<String> TEXT = (g, p, v) -> g.writeString(v);
    private static final Value<Enum<?>> NAME = (g, p, v) -> g.writeString(v.name());
    /** As the time module writes an {@link Instant} with timestamps off: ISO-8601 ({@link Instant#toString()}). */
    private static final Value<Instant> INSTANT = (g, p, v) -> g.writeString(v.toString());
    private static final Value<JsonNode> NODE = (g, p, v) -> v.serialize(g, p);
    private static final Value<List<String>> TEXTS = (g, p, values) -> {
        g.writeStartArray();
        for (String value : values) {
            g.writeString(value);
        }
        g.writeEndArray();
    };
    /** Null items are kept, as in the bean serialisation. */
    private static final Value<List<JsonNode>> NODES = (g, p, values) -> {
        g.writeStartArray();
        for (JsonNode value : values) {
            if (value == null) {
                g.writeNull();
            } else {
                value.serialize(g, p);
            }
        }
        g.writeEndArray();
    };
    private static final Value<Map<String, Integer>> COUNTS = (g, p, values) -> {
        g.writeStartObject();
        for (Map.Entry<String, Integer> e : values.entrySet()) {
            if (e.getValue() != null) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
        }
        g.writeEndObject();
    };

    @Override
    public void serialize(RunData d, JsonGenerator g, SerializerProvider p) throws IOException {
        g.writeStartObject();
        field(g, p, "runId", d.runId, TEXT);
        field(g, p, "flowId", d.flowId, TEXT);
        g.writeNumberField("flowVersion", d.flowVersion);
        field(g, p, "userId", d.userId, TEXT);
        field(g, p, "label", d.label, TEXT);
        field(g, p, "tags", d.tags, TEXTS);
        field(g, p, "notifyOn", d.notifyOn, TEXTS);
        field(g, p, "notifyEmail", d.notifyEmail, TEXT);
        field(g, p, "status", d.status, NAME);
        g.writeNumberField("attempt", d.attempt);
        field(g, p, "failedState", d.failedState, TEXT);
        field(g, p, "failedInput", d.failedInput, NODE);
        field(g, p, "output", d.output, NODE);
        field(g, p, "error", d.error, TEXT);
        field(g, p, "cause", d.cause, TEXT);
        field(g, p, "inactiveReason", d.inactiveReason, TEXT);
        field(g, p, "visits", d.visits, COUNTS);
        g.writeNumberField("transitions", d.transitions);
        field(g, p, "branches", d.branches, RunDataWriter::branches);
        g.writeEndObject();
    }

    /** {@code field} and its value; nothing for a null value, as the bean serialisation's inclusion setting does. */
    private static <T> void field(JsonGenerator g, SerializerProvider p, String field, T value, Value<? super T> how)
            throws IOException {
        if (value != null) {
            g.writeFieldName(field);
            how.write(g, p, value);
        }
    }

    private static void branches(JsonGenerator g, SerializerProvider p, Map<String, RunData.Branch> branches) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, RunData.Branch> e : branches.entrySet()) {
            field(g, p, e.getKey(), e.getValue(), RunDataWriter::branch); // null map values are left out too
        }
        g.writeEndObject();
    }

    private static void branch(JsonGenerator g, SerializerProvider p, RunData.Branch b) throws IOException {
        g.writeStartObject();
        field(g, p, "id", b.id, TEXT);
        field(g, p, "parent", b.parent, TEXT);
        g.writeNumberField("index", b.index);
        field(g, p, "stateName", b.stateName, TEXT);
        field(g, p, "data", b.data, NODE);
        g.writeNumberField("visit", b.visit);
        g.writeNumberField("attempt", b.attempt);
        field(g, p, "retriesUsed", b.retriesUsed, COUNTS);
        field(g, p, "waiting", b.waiting, RunDataWriter::waiting);
        g.writeEndObject();
    }

    private static void waiting(JsonGenerator g, SerializerProvider p, RunData.Waiting w) throws IOException {
        g.writeStartObject();
        field(g, p, "kind", w.kind, NAME);
        field(g, p, "token", w.token, TEXT);
        field(g, p, "at", w.at, INSTANT);
        field(g, p, "action", w.action, RunDataWriter::action);
        field(g, p, "join", w.join, RunDataWriter::join);
        g.writeEndObject();
    }

    private static void action(JsonGenerator g, SerializerProvider p, RunData.ActionCall a) throws IOException {
        g.writeStartObject();
        field(g, p, "requestId", a.requestId, TEXT);
        field(g, p, "actionUrl", a.actionUrl, TEXT);
        field(g, p, "body", a.body, NODE);
        field(g, p, "runAs", a.runAs, TEXT);
        field(g, p, "actionScope", a.actionScope, TEXT);
        field(g, p, "actionId", a.actionId, TEXT);
        field(g, p, "status", a.status, TEXT);
        field(g, p, "displayStatus", a.displayStatus, TEXT);
        field(g, p, "deadline", a.deadline, INSTANT);
        g.writeNumberField("polls", a.polls);
        field(g, p, "nextPollAt", a.nextPollAt, INSTANT);
        g.writeBooleanField("inactive", a.inactive);
        g.writeEndObject();
    }

    private static void join(JsonGenerator g, SerializerProvider p, RunData.Join j) throws IOException {
        g.writeStartObject();
        g.writeNumberField("total", j.total);
        g.writeNumberField("started", j.started);
        g.writeNumberField("finished", j.finished);
        field(g, p, "input", j.input, NODE);
        field(g, p, "items", j.items, NODES);
        field(g, p, "results", j.results, NODES);
        g.writeEndObject();
    }
}
