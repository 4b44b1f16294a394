package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** {@code continuum grants}: the offline access you gave the engine, and taking it back (docs/auth.md). */
@Command(name = "grants", mixinStandardHelpOptions = true,
        description = {"List your offline grants to the engine, newest first, with the runs acting for you through each (GET /grants).",
                "Give one with `continuum login --offline`; take one back with `continuum grants revoke GRANT_ID`."},
        subcommands = GrantsCommand.Revoke.class)
public final class GrantsCommand extends EngineCommand {

    @Override
    public Integer call() {
        JsonNode answer = root().client().grants();
        show(answer, lines(answer));
        return ExitCodes.OK;
    }

    static List<String> lines(JsonNode answer) {
        List<String> lines = new ArrayList<>();
        if (answer.path("grants").isEmpty()) {
            lines.add("No offline grants: your runs act through your sign-in session. Give one with `continuum login --offline`.");
        }
        for (JsonNode grant : answer.path("grants")) {
            String revoked = grant.hasNonNull("revoked_at")
                    ? "  revoked by " + Render.text(grant, "revoked_by") + " at " + Render.time(grant, "revoked_at") : "";
            lines.add(String.join("  ", Render.text(grant, "id"), Render.text(grant, "status"),
                    "given " + Render.time(grant, "created_at")) + revoked);
            grant.path("runs").forEach(run -> lines.add("  run " + run.asText()));
        }
        return lines;
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke one of your offline grants (DELETE /grants/GRANT_ID): the runs acting through it go INACTIVE at their next provider call.")
    static final class Revoke extends EngineCommand {

        @Parameters(paramLabel = "GRANT_ID")
        String grantId;

        @Override
        public Integer call() {
            root().client().revokeGrant(grantId);
            show(root().mapper().createObjectNode().put("revoked", grantId), List.of("revoked " + grantId));
            return ExitCodes.OK;
        }
    }
}
