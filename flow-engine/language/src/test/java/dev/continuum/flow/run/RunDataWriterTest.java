package dev.continuum.flow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The stored form written without reflection is, character for character, the document Jackson's bean serialisation gives. */
class RunDataWriterTest {

    private static final ObjectMapper BEANS = RunState.beanMapper();

    @Test
    void shouldWriteEveryFieldAsTheBeanSerialisationWould() throws Exception {
        RunData filled = RunDataCopyTest.filled(RunData.class, "run");

        String written = new RunState(filled).toJsonText();

        assertThat(written).isEqualTo(BEANS.writeValueAsString(filled))
                .contains("\"inactive\":true").contains("run-branches-waiting-join-results").contains("\"nextPollAt\":\"2026-01-02T03:04:05.123456Z\"");
        assertThat(RunState.MAPPER.<JsonNode>valueToTree(filled)).isEqualTo(BEANS.<JsonNode>valueToTree(filled));
    }

    @Test
    void shouldLeaveOutNullFieldsAsTheBeanSerialisationWould() throws Exception {
        RunData empty = new RunData();

        assertThat(new RunState(empty).toJsonText()).isEqualTo(BEANS.writeValueAsString(empty));
    }

    @Test
    void shouldWriteJsonNullsAndNullItemsAsTheBeanSerialisationWould() throws Exception {
        RunData run = RunDataCopyTest.filled(RunData.class, "run");
        run.output = NullNode.getInstance();
        run.tags = new ArrayList<>(Arrays.asList("a", null));
        run.visits.put("none", null);
        RunData.Branch branch = run.branches.values().iterator().next();
        branch.waiting.action = null;
        branch.waiting.join.items.add(null);
        branch.waiting.join.results.add(NullNode.getInstance());
        run.branches.put("gone", null);

        assertThat(new RunState(run).toJsonText()).isEqualTo(BEANS.writeValueAsString(run));
    }

    @Test
    void shouldReadBackWhatItWrote() throws Exception {
        RunData filled = RunDataCopyTest.filled(RunData.class, "run");
        String written = new RunState(filled).toJsonText();

        assertThat(RunState.fromJsonText(written).toJsonText()).isEqualTo(written);
    }
}
