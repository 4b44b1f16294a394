package dev.continuum.provider.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolJsonTest {

    private final ObjectMapper json = ProviderJson.mapper();

    @Test
    void shouldReadTheGlobusExampleStatusIncludingOffsetTimes() throws Exception {
        ActionStatus status = json.readValue("""
                {"action_id": "6529", "status": "ACTIVE",
                 "creator_id": "urn:globus:auth:identity:ae2a1750-d274-11e5-b867-e74762c29f57",
                 "details": {"estimated_complete": "2019-06-21T17:15:04.805868+00:00"},
                 "manage_by": ["urn:globus:auth:identity:ca73e829-715f-4522-9dec-a507fe57a661"],
                 "release_after": "P30D", "start_time": "2019-06-21T17:01:55.806781+00:00",
                 "something_new": 1}""", ActionStatus.class);

        assertThat(status.status()).isEqualTo(ActionState.ACTIVE);
        assertThat(status.startTime()).isEqualTo(Instant.parse("2019-06-21T17:01:55.806781Z"));
        assertThat(status.manageBy()).hasSize(1);
        assertThat(status.monitorBy()).isEmpty();
        assertThat(status.details().path("estimated_complete").asText()).startsWith("2019");
    }

    @Test
    void shouldWriteSnakeCaseFieldsAndIsoTimes() throws Exception {
        ActionStatus status = new ActionStatus("a1", ActionState.SUCCEEDED, "local:anonymous", null, List.of("x"),
                null, Instant.parse("2030-01-01T00:00:00Z"), Instant.parse("2030-01-01T00:00:01Z"), "P30D", "Done", null);

        JsonNode doc = json.valueToTree(status);

        assertThat(doc.path("action_id").asText()).isEqualTo("a1");
        assertThat(doc.path("creator_id").asText()).isEqualTo("local:anonymous");
        assertThat(doc.path("start_time").asText()).isEqualTo("2030-01-01T00:00:00Z");
        assertThat(doc.path("completion_time").asText()).isEqualTo("2030-01-01T00:00:01Z");
        assertThat(doc.path("display_status").asText()).isEqualTo("Done");
        assertThat(doc.path("details").isObject()).isTrue();
        assertThat(doc.has("label")).isFalse();
    }

    @Test
    void shouldWriteRequestFieldsInSnakeCase() throws Exception {
        ActionRequest request = new ActionRequest("r", json.readTree("{\"a\":1}"), "l", List.of("t"), List.of("m"),
                List.of("n"), "P1D", Instant.parse("2030-01-01T00:00:00Z"));

        JsonNode doc = json.valueToTree(request);

        assertThat(doc.fieldNames()).toIterable().containsExactlyInAnyOrder("request_id", "body", "label", "tags",
                "manage_by", "monitor_by", "release_after", "deadline");
        assertThat(json.treeToValue(doc, ActionRequest.class)).isEqualTo(request);
    }

    @Test
    void shouldTreatOnlySucceededAndFailedAsTerminal() {
        assertThat(ActionState.SUCCEEDED.terminal()).isTrue();
        assertThat(ActionState.FAILED.terminal()).isTrue();
        assertThat(ActionState.ACTIVE.terminal()).isFalse();
        assertThat(ActionState.INACTIVE.terminal()).isFalse();
    }
}
