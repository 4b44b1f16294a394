package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.RunEventRecord;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The API's JSON shapes (snake_case on the wire, like Globus Flows). */
final class Views {

    private Views() {}

    record Flow(UUID id, int version, String title, String subtitle, String description, List<String> keywords,
                JsonNode definition, JsonNode inputSchema, JsonNode roles, String createdBy, Instant createdAt,
                Instant updatedAt) {
        static Flow of(FlowRecord f) {
            return new Flow(f.id(), f.version(), f.title(), f.subtitle(), f.description(), f.keywords(), f.definition(),
                    f.inputSchema(), f.roles(), f.ownerId(), f.createdAt(), f.updatedAt());
        }
    }

    record Page<T>(List<T> items, int limit, int offset, boolean hasNextPage) {}

    record RunDetails(JsonNode output, String error, String cause, String inactiveReason) {}

    record Run(UUID runId, UUID flowId, int flowVersion, String status, String label, List<String> tags,
               String createdBy, Instant startTime, Instant completionTime, RunDetails details) {
        static Run of(RunRecord r) {
            RunState s = r.state();
            return new Run(r.id(), r.flowId(), r.flowVersion(), s.status().name(), r.label(), r.tags(), r.ownerId(),
                    r.createdAt(), r.completedAt(), new RunDetails(s.output().orElse(null), s.error().orElse(null),
                    s.cause().orElse(null), s.inactiveReason().orElse(null)));
        }
    }

    record Event(int seq, String code, String stateName, String description, JsonNode details, Instant time) {
        static Event of(RunEventRecord e) {
            return new Event(e.seq(), e.code(), e.stateName(), e.description(), e.details(), e.at());
        }
    }

    record Log(UUID runId, List<Event> entries, boolean hasNextPage, Integer marker) {}

    record Validation(boolean valid, List<dev.continuum.engine.domain.EngineError.FieldIssue> errors) {}
}
