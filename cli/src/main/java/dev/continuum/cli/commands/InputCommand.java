package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.files.JsonFiles;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** Human input: the forms a run waits on, one form, or an answer to it (docs/api.md "Human input"). */
@Command(name = "input", mixinStandardHelpOptions = true,
        description = "Show the forms an INACTIVE run waits on (GET /runs/RUN_ID/inputs), one form with its JSON schema "
                + "(with STATE), or answer it with --file (POST /runs/RUN_ID/inputs/STATE).")
public final class InputCommand extends EngineCommand {

    @Parameters(index = "0", paramLabel = "RUN_ID")
    String runId;

    @Parameters(index = "1", paramLabel = "STATE", arity = "0..1", description = "the state whose form to show or answer")
    String state;

    @Option(names = "--file", paramLabel = "FILE|JSON", description = "the answer: a JSON file, inline JSON, or - for standard input")
    String answer;

    @Override
    public Integer call() {
        String run = "/runs/" + EngineClient.pathSegment(runId) + "/inputs";
        if (state == null) {
            JsonNode forms = root().client().call("GET", run, null);
            List<String> lines = new ArrayList<>();
            forms.path("inputs").forEach(form -> lines.add(Render.text(form, "state_name") + "  " + Render.text(form, "title")));
            show(forms, lines.isEmpty() ? List.of("run " + runId + " waits on no form") : lines);
            return ExitCodes.OK;
        }
        String path = run + "/" + EngineClient.pathSegment(state);
        if (answer == null) {
            JsonNode form = root().client().call("GET", path, null);
            show(form, List.of(Render.text(form, "title"), Render.text(form, "description"), Render.pretty(form.path("schema"))));
            return ExitCodes.OK;
        }
        JsonNode after = root().client().call("POST", path, JsonFiles.fileOrJson(answer, root().mapper()));
        show(after, List.of(Render.text(after, "run_id") + " " + Render.text(after, "status")));
        return ExitCodes.OK;
    }
}
