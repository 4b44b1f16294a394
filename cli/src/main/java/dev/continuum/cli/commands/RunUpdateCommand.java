package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.UsageProblem;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code continuum runs update}: PUT /runs/{id}; an option left out leaves that field as it is. */
@Command(name = "update", mixinStandardHelpOptions = true,
        description = {"Change a run's label, tags, managers or monitors (PUT /runs/RUN_ID); only the run's owner and managers may.",
                "A list option replaces the whole list; give it once with an empty value (--tag '') to empty the list."})
public final class RunUpdateCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Option(names = "--label", paramLabel = "LABEL", description = "The new label.")
    String label;

    @Option(names = "--tag", paramLabel = "TAG", description = "A tag; repeat for several. Replaces the run's tags.")
    List<String> tags;

    @Option(names = "--manager", paramLabel = "USER", description = "Who may manage the run; repeat for several. Replaces run_managers.")
    List<String> managers;

    @Option(names = "--monitor", paramLabel = "USER", description = "Who may watch the run; repeat for several. Replaces run_monitors.")
    List<String> monitors;

    @Override
    public Integer call() {
        ObjectNode changes = root().mapper().createObjectNode();
        if (label != null) {
            changes.put("label", label);
        }
        list(changes, "tags", tags);
        list(changes, "run_managers", managers);
        list(changes, "run_monitors", monitors);
        if (changes.isEmpty()) {
            throw new UsageProblem("say what to change: --label, --tag, --manager or --monitor");
        }
        JsonNode run = root().client().updateRun(runId, changes);
        show(run, Render.run(run));
        return ExitCodes.OK;
    }

    private static void list(ObjectNode changes, String field, List<String> values) {
        if (values != null) {
            var array = changes.putArray(field);
            values.stream().filter(v -> !v.isBlank()).forEach(array::add);
        }
    }
}
