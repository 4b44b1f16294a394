package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.files.JsonFiles;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

// no standard -V/--version here: --version picks the flow's version
@Command(name = "start",
        description = {"Start a run of a flow's current version (or --version N) (POST /flows/FLOW_ID/run) and print the run id.",
                "Follow it with: continuum watch RUN_ID, or start with --watch."})
public final class StartCommand extends EngineCommand {

    @Parameters(paramLabel = "FLOW_ID")
    String flowId;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE|JSON",
            description = "The run's input: a JSON file, JSON text such as '{\"name\": \"Ada\"}', or - for standard input. Default {}.")
    String input;

    @Option(names = "--label", paramLabel = "LABEL", description = "A label to find the run by later.")
    String label;

    @Option(names = "--tag", paramLabel = "TAG", description = "A tag for the run; repeat for several.")
    List<String> tags = new ArrayList<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--version", paramLabel = "N",
            description = "Run this version of the flow (see `continuum flows versions FLOW_ID`); default the current one.")
    Integer version;

    @Option(names = "--watch", description = "Then follow the run like 'continuum watch' and exit as it does.")
    boolean watch;

    @Mixin
    FollowOptions follow;

    @Override
    public Integer call() throws InterruptedException {
        ObjectNode request = root().mapper().createObjectNode();
        request.set("body", input == null ? root().mapper().createObjectNode() : JsonFiles.fileOrJson(input, root().mapper()));
        if (label != null) {
            request.put("label", label);
        }
        if (version != null) {
            request.put("flow_version", version);
        }
        if (!tags.isEmpty()) {
            tags.forEach(request.putArray("tags")::add);
        }
        JsonNode run = root().client().startRun(flowId, request);
        if (!watch) {
            show(run, List.of(Render.text(run, "run_id")));
            return ExitCodes.OK;
        }
        // Followed runs print as a stream: the run id (or the started run as one JSON line) comes first.
        out().println(json() ? Render.compact(run) : "run " + Render.text(run, "run_id"));
        return new RunFollower(root(), Render.text(run, "run_id"), follow.intervalSeconds, follow.patienceSeconds).follow();
    }
}
