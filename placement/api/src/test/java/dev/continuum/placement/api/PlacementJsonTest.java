package dev.continuum.placement.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The records written and read with {@link PlannerJson}: the planner service's field names, nulls left out. */
class PlacementJsonTest {

    private static final ObjectMapper JSON = PlannerJson.mapper();

    @Test
    void shouldLeaveOutWhatTheCallerDidNotSayWhenARequestIsWritten() throws Exception {
        // given
        PlacementBody body = new PlacementBody("a1", "r1", PlacementBody.INFERENCE, "ocr@1", null, null,
                new PlacementBody.DemandBody(1, null, null, null, null),
                List.of(new PlacementBody.DataBody("gw-1", "file:x.json", 42L)), null, 500L, null, null, null, null,
                null, null, "gw-1", null);

        // when
        String json = JSON.writeValueAsString(body);

        // then
        assertThat(json).isEqualTo("{\"id\":\"a1\",\"runId\":\"r1\",\"kind\":\"inference\",\"model\":\"ocr@1\","
                + "\"demand\":{\"gpus\":1},\"data\":[{\"endpointId\":\"gw-1\",\"path\":\"file:x.json\",\"sizeBytes\":42}],"
                + "\"latencySloMillis\":500,\"site\":\"gw-1\"}");
    }

    @Test
    void shouldSendNoTermThatWasNotMeasuredWhenACompletionIsWritten() throws Exception {
        // given
        Completion completion = Completion.of("gw-1", 30, Completion.NOT_MEASURED, -5, 12);

        // when
        String json = JSON.writeValueAsString(completion);

        // then
        assertThat(json).isEqualTo("{\"site\":\"gw-1\",\"computeMillis\":30,\"transferMillis\":0,\"overheadMillis\":12}");
    }

    @Test
    void shouldFindTheReplacementWhenThePlannerPlacedTheJobElsewhere() throws Exception {
        // given
        PlacementView view = JSON.readValue("""
                {"id": "a1", "kind": "inference", "status": "placed", "site": "dc-pool", "unknownLater": 1,
                 "decisions": [
                   {"seq": 3, "id": "a1", "status": "placed", "site": "gw-1", "at": "2026-12-07T17:00:00Z",
                    "cause": "request", "decision": {"type": "placed", "chosen": {"site": "gw-1"}}},
                   {"seq": 9, "id": "a1", "status": "placed", "site": "dc-pool", "at": "2026-12-07T17:00:12Z",
                    "cause": "inventory", "decision": {"type": "placed", "chosen": {"site": "dc-pool"}}}]}""",
                PlacementView.class);

        // when
        Replacement replacement = view.replacementAfter("gw-1").orElseThrow();

        // then
        assertThat(replacement.site()).isEqualTo("dc-pool");
        assertThat(replacement.decision().path("chosen").path("site").asText()).isEqualTo("dc-pool");
        assertThat(view.replacementAfter("dc-pool")).isEmpty();
    }

    @Test
    void shouldFindNoReplacementWhenTheOnlyDecisionIsTheFirstRefusal() throws Exception {
        // given
        JsonNode refused = JSON.readTree("{\"type\": \"unplaceable\", \"reasonBySite\": {\"gw-1\": \"offline\"}}");
        PlacementView view = new PlacementView("a1", null, "inference", "unplaceable", null, null,
                List.of(new DecisionView(4, "a1", null, "inference", "unplaceable", null, null, "request", refused)),
                List.of());

        // when / then
        assertThat(view.replacementAfter("gw-1")).isEmpty();
    }
}
