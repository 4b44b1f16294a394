package dev.continuum.flow.run;

import static dev.continuum.flow.run.Execution.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.State;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.Join;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.util.Optional;

/**
 * Parallel and Map: the state's branch waits on a join while its children (one per Parallel branch or
 * Map item) run as branches of their own; the last child to finish completes the join.
 */
final class JoinSteps {

    private JoinSteps() {
    }

    static void startParallel(Execution x, Branch branch, ParallelState parallel) throws DataException {
        JsonNode input = x.effectiveInput(branch, parallel.paths(), "InputPath");
        if (parallel.parameters().isPresent()) {
            input = x.template(branch, parallel.parameters().get(), input, "Parameters", x.context()).value();
        }
        Join join = new Join();
        join.total = parallel.branches().size();
        join.input = input;
        for (int i = 0; i < join.total; i++) {
            join.results.add(JSON.nullNode());
        }
        awaitJoin(x, branch, join);
        // the count lets a reader of the log (the web UI) show how many branches are pending before any has finished
        x.logLine("ParallelStarted", parallel.name(), "Running " + join.total + " branches",
                Execution.details("branches", JSON.numberNode(join.total)));
        while (join.started < join.total) {
            spawn(x, branch, join.started, parallel.branches().get(join.started).startAt(), input);
            join.started++;
        }
    }

    static void startMap(Execution x, Branch branch, MapState map) throws DataException {
        JsonNode input = x.effectiveInput(branch, map.paths(), "InputPath");
        JsonNode items = input;
        if (!JsonPaths.isWholeDocument(map.itemsPath())) {
            items = x.read(branch, map.itemsPath(), Templates.withContext(input, x.context()), "ItemsPath");
        }
        if (!items.isArray()) {
            throw new DataException(x.where(branch) + " ItemsPath: '" + map.itemsPath() + "' must select a list, but selects "
                    + items.getNodeType().name().toLowerCase());
        }
        Join join = new Join();
        join.total = items.size();
        join.input = input;
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (map.itemSelector().isPresent()) {
                ObjectNode context = (ObjectNode) x.context();
                ObjectNode entry = context.putObject("Map").putObject("Item");
                entry.put("Index", i);
                entry.set("Value", item);
                item = x.template(branch, map.itemSelector().get(), input, "ItemSelector", context).value();
            }
            join.items.add(item);
            join.results.add(JSON.nullNode());
        }
        awaitJoin(x, branch, join);
        x.logLine("MapStarted", map.name(), "Running the iterator over " + join.total + " items",
                Execution.details("items", JSON.numberNode(join.total)));
        if (join.total == 0) {
            completeJoin(x, branch);
            return;
        }
        startMoreItems(x, branch, map);
    }

    /** Starts items until MaxConcurrency (0: no limit) children run at once. */
    private static void startMoreItems(Execution x, Branch branch, MapState map) {
        Join join = branch.waiting.join;
        int limit = map.maxConcurrency() == 0 ? Integer.MAX_VALUE : map.maxConcurrency();
        while (join.started < join.total && join.started - join.finished < limit) {
            spawn(x, branch, join.started, map.iterator().startAt(), join.items.get(join.started));
            join.started++;
        }
    }

    private static void awaitJoin(Execution x, Branch branch, Join join) {
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.JOIN;
        waiting.token = x.token(branch) + "#join";
        waiting.join = join;
        branch.waiting = waiting;
    }

    private static void spawn(Execution x, Branch parent, int index, String startAt, JsonNode input) {
        Branch child = new Branch();
        child.id = (parent.id.isEmpty() ? "" : parent.id + "/") + parent.stateName + "[" + index + "]";
        child.parent = parent.id;
        child.index = index;
        child.data = input.deepCopy();
        x.run.branches.put(child.id, child);
        x.enterState(child, startAt);
    }

    /** A child reached its end with {@code output}: its result goes to the join, which may now complete. */
    static void childFinished(Execution x, Branch child, JsonNode output) {
        Branch parent = x.run.branches.get(child.parent);
        x.run.branches.remove(child.id);
        Join join = parent.waiting.join;
        join.results.set(child.index, output);
        join.finished++;
        if (join.finished == join.total) {
            completeJoin(x, parent);
        } else if (x.stateOf(parent) instanceof MapState map) {
            startMoreItems(x, parent, map);
        }
    }

    private static void completeJoin(Execution x, Branch branch) {
        State state = x.stateOf(branch);
        ArrayNode results = JSON.arrayNode();
        branch.waiting.join.results.forEach(results::add);
        String resultPath;
        Optional<String> next;
        if (state instanceof ParallelState parallel) {
            resultPath = parallel.paths().resultPath();
            next = parallel.next();
            x.logLine("ParallelCompleted", state.name(), "All branches completed", null);
        } else {
            MapState map = (MapState) state;
            resultPath = map.paths().resultPath();
            next = map.next();
            x.logLine("MapCompleted", state.name(), "All items completed", null);
        }
        try {
            branch.waiting = null;
            x.moveOn(branch, next, x.place(branch, resultPath, results));
        } catch (DataException e) {
            x.failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }
}
