package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.JSON;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code .=} expression found in the shared real Globus flows, evaluated with plausible state;
 * expected values worked out by hand as CPython would compute them.
 */
class RealFlowExpressionsTest {

    private static final String LS_RESULT = """
            {"source": {"path": "/~/data/"}, "destination": {"path": "/archive"},
             "ls_results": {"details": {"DATA": [{"name": "a.h5", "type": "file"}, {"name": "b.h5", "type": "file"}]}}}""";

    @Test
    void shouldBuildTransferItemsForEveryListedFileWhenFlow019MovesABatch() throws Exception {
        assertEvaluates("[{'source_path': source.path.rstrip('/') + '/' + item.name, "
                        + "'destination_path': destination.path.rstrip('/') + '/' + item.name} for item in ls_results.details.DATA]",
                LS_RESULT,
                "[{\"source_path\":\"/~/data/a.h5\",\"destination_path\":\"/archive/a.h5\"},"
                        + "{\"source_path\":\"/~/data/b.h5\",\"destination_path\":\"/archive/b.h5\"}]");
    }

    @Test
    void shouldBuildDeleteItemsForEveryListedFileWhenFlow019DeletesABatch() throws Exception {
        assertEvaluates("[{'path': source.path.rstrip('/') + '/' + item.name} for item in ls_results.details.DATA]",
                LS_RESULT, "[{\"path\":\"/~/data/a.h5\"},{\"path\":\"/~/data/b.h5\"}]");
    }

    @Test
    void shouldAppendTheNextBatchOfNamesWhenFlow008ProcessesABatch() throws Exception {
        String state = """
                {"state": {"i": 2, "batches": [["f0", "f1"]]}, "step": 2,
                 "ls": {"details": {"DATA": [{"name": "f0"}, {"name": "f1"}, {"name": "f2"}, {"name": "f3"}, {"name": "f4"}]}}}""";
        assertEvaluates("state.batches + [[file.name for file in ls.details.DATA[state.i:state.i+step]]]", state,
                "[[\"f0\",\"f1\"],[\"f2\",\"f3\"]]");
    }

    @Test
    void shouldYieldAShortLastBatchWhenFlow008SlicesPastTheEnd() throws Exception {
        String state = """
                {"state": {"i": 4, "batches": []}, "step": 2,
                 "ls": {"details": {"DATA": [{"name": "f0"}, {"name": "f1"}, {"name": "f2"}, {"name": "f3"}, {"name": "f4"}]}}}""";
        assertEvaluates("state.batches + [[file.name for file in ls.details.DATA[state.i:state.i+step]]]", state,
                "[[\"f4\"]]");
    }

    @Test
    void shouldAdvanceTheCursorWhenFlow008IncrementsTheBatch() throws Exception {
        assertEvaluates("state.i + step", "{\"state\": {\"i\": 2}, \"step\": 2}", "4");
    }

    @Test
    void shouldIncrementTheCounterWhenFlow007Loops() throws Exception {
        assertEvaluates("state_manager.counter + 1", "{\"state_manager\": {\"counter\": 41}}", "42");
    }

    @Test
    void shouldWrapTheBackQuotedPathInAListWhenFlow015BuildsItems() throws Exception {
        assertEvaluates("[`$.source_path`]", "{\"source_path\": \"/~/in/file.txt\"}", "[\"/~/in/file.txt\"]");
    }

    @Test
    void shouldReadANestedBackQuotedPathWhenFlow018BuildsItems() throws Exception {
        assertEvaluates("[`$.destination.path`]", "{\"destination\": {\"path\": \"/out/\"}}", "[\"/out/\"]");
    }

    @Test
    void shouldParseEveryExpressionInTheSharedRealFlows() throws IOException {
        Path valid = sharedFlows();
        assumeTrue(valid != null, "shared Globus flows are not available");
        List<String> expressions = new ArrayList<>();
        try (Stream<Path> files = Files.list(valid)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                collectExpressions(JSON.readTree(file.toFile()), expressions);
            }
        }
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(7);
        for (String expression : expressions) {
            assertThat(Expressions.checkSyntax(expression)).as(expression).isEmpty();
        }
    }

    private static void collectExpressions(JsonNode node, List<String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().endsWith(".=") && e.getValue().isTextual()) {
                    out.add(e.getValue().textValue());
                }
                collectExpressions(e.getValue(), out);
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectExpressions(child, out));
        }
    }

    /** ../shared/globus-flows/valid beside the repository root, found by walking up from the module. */
    static Path sharedFlows() {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("globus-flows").resolve("valid");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
