package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineClient;
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

    /** What revoking {@code grant} means for the person, said the same by {@code grants revoke} and {@code logout --everywhere}. */
    static String revoked(JsonNode grant) {
        JsonNode runs = grant.path("runs");
        return "Revoked offline grant " + Render.text(grant, "id") + (runs.isEmpty() ? ""
                : "; " + runs.size() + " run(s) acting through it go INACTIVE at their next provider call");
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke one of your offline grants (DELETE /grants/GRANT_ID): the runs acting through it go INACTIVE at their next provider call.")
    static final class Revoke extends EngineCommand {

        @Parameters(paramLabel = "GRANT_ID")
        String grantId;

        @Override
        public Integer call() {
            EngineClient engine = root().client();
            // listed first, to say which runs the revocation stops; not found here, the DELETE gets the engine's 404
            JsonNode grant = root().mapper().createObjectNode().put("id", grantId);
            for (JsonNode listed : engine.grants().path("grants")) {
                if (grantId.equals(Render.text(listed, "id"))) {
                    grant = listed;
                }
            }
            engine.revokeGrant(grantId);
            JsonNode runs = grant.path("runs").isArray() ? grant.get("runs") : root().mapper().createArrayNode();
            show(root().mapper().createObjectNode().put("revoked", grantId).set("runs", runs), List.of(revoked(grant)));
            return ExitCodes.OK;
        }
    }
}
