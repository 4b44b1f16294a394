package dev.continuum.bench.measure;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FiveStepFlowTest {

    @Test
    void shouldWalkPassEchoChoiceSleepPassWithTheEnginesOwnProviders() {
        JsonNode flow = FiveStepFlow.definition("http://127.0.0.1:8080/", BigDecimal.ZERO);

        List<String> path = new ArrayList<>();
        String name = flow.path("StartAt").asText();
        while (!name.isEmpty()) {
            JsonNode state = flow.path("States").path(name);
            path.add(state.path("Type").asText() + (state.has("ActionUrl") ? " " + state.path("ActionUrl").asText() : ""));
            name = state.path("Type").asText().equals("Choice")
                    ? state.path("Choices").get(0).path("Next").asText() : state.path("Next").asText();
        }

        assertThat(path).containsExactly("Pass", "Action http://127.0.0.1:8080/providers/echo", "Choice",
                "Action http://127.0.0.1:8080/providers/sleep", "Pass");
        assertThat(flow.at("/States/Nap/Parameters/seconds").decimalValue()).isEqualByComparingTo("0");
    }
}
