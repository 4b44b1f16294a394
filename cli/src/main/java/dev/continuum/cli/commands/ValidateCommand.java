package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.ApiProblem;
import dev.continuum.cli.client.IssueText;
import dev.continuum.cli.client.Problem;
import dev.continuum.cli.files.FileProblem;
import dev.continuum.cli.files.FlowFile;
import dev.continuum.cli.output.Render;
import dev.continuum.flow.validation.ValidationIssue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check a flow file without deploying it; prints every problem as 'pointer: message'.",
                "FILE is a bare definition (StartAt, States) or a document {title, definition, input_schema, ...}.",
                "Exits 1 when the flow is invalid."})
public final class ValidateCommand extends EngineCommand {

    @Parameters(paramLabel = "FILE", description = "The flow file (JSON).")
    Path file;

    @Option(names = "--server", description = "Also ask the engine (POST /flows/validate); its answer is the authority.")
    boolean server;

    @Override
    public Integer call() {
        List<ValidationIssue> offline;
        String syntaxError = null;
        FlowFile flow = null;
        try {
            flow = FlowFile.read(file, root().api(), root().mapper());
            offline = flow.check();
        } catch (FileProblem e) {
            if (e.kind() != FileProblem.Kind.NOT_JSON) {
                throw e;
            }
            // A syntax error is the first problem of an invalid flow, reported like any other.
            syntaxError = e.getMessage();
            offline = List.of(new ValidationIssue("", syntaxError));
        }
        Optional<Problem> serverAnswer = server && flow != null ? askServer(flow) : Optional.empty();
        boolean valid = offline.isEmpty() && serverAnswer.isEmpty();
        if (json()) {
            out().println(Render.pretty(report(offline, serverAnswer, flow != null && server)));
        } else {
            if (syntaxError != null) {
                out().println(syntaxError);
            } else {
                offline.forEach(i -> out().println(IssueText.of(i.pointer(), i.message())));
            }
            serverAnswer.ifPresent(p -> {
                out().println("engine at " + root().api() + " says:");
                p.lines().forEach(l -> out().println("  " + l.strip()));
            });
            if (valid) {
                out().println(file + ": valid" + (server ? " (checked here and by the engine at " + root().api() + ")" : ""));
            } else {
                root().err().println(file + ": invalid, " + count(offline, serverAnswer));
            }
        }
        return valid ? ExitCodes.OK : ExitCodes.NOT_OK;
    }

    /** Empty when the engine accepts the flow; its problem when it does not. Other refusals still fail the command. */
    private Optional<Problem> askServer(FlowFile flow) {
        ObjectNode body = root().mapper().createObjectNode();
        body.set("definition", flow.definition());
        if (!flow.inputSchema().isMissingNode()) {
            body.set("input_schema", flow.inputSchema());
        }
        try {
            root().client().validateFlow(body);
            return Optional.empty();
        } catch (ApiProblem refused) {
            if (refused.problem().status() == 400) {
                return Optional.of(refused.problem());
            }
            throw refused;
        }
    }

    /** The same shape as the engine's answer to POST /flows/validate, plus the engine's own when asked. */
    private ObjectNode report(List<ValidationIssue> offline, Optional<Problem> serverAnswer, boolean askedServer) {
        ObjectNode report = root().mapper().createObjectNode();
        report.put("valid", offline.isEmpty() && serverAnswer.isEmpty());
        report.set("errors", issues(offline.stream().map(i -> new Problem.FieldIssue(i.pointer(), i.message())).toList()));
        if (askedServer) {
            ObjectNode engine = report.putObject("server");
            engine.put("valid", serverAnswer.isEmpty());
            engine.set("errors", issues(serverAnswer.map(Problem::errors).orElse(List.of())));
        }
        return report;
    }

    private ArrayNode issues(List<Problem.FieldIssue> issues) {
        ArrayNode array = root().mapper().createArrayNode();
        issues.forEach(i -> array.addObject().put("pointer", i.pointer()).put("message", i.message()));
        return array;
    }

    private static String count(List<ValidationIssue> offline, Optional<Problem> serverAnswer) {
        String here = offline.size() + " problem(s) found";
        return serverAnswer.map(p -> here + ", the engine found " + p.errors().size()).orElse(here);
    }
}
