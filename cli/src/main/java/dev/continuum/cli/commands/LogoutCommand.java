package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.output.Render;
import dev.continuum.cli.signin.SignIn;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@Command(name = "logout", mixinStandardHelpOptions = true,
        description = "Sign out: revokes the stored sign-in at the identity provider and removes it from your config folder.")
public final class LogoutCommand extends EngineCommand {

    @Option(names = "--everywhere", description = "First revoke every offline grant you gave the engine (DELETE /grants/ID): "
            + "runs acting for you through one go INACTIVE at their next provider call.")
    boolean everywhere;

    @Override
    public Integer call() {
        Optional<SignIn> stored = root().tokens().store().load();
        if (stored.isEmpty()) {
            show(root().mapper().createObjectNode().put("signed_out", false), List.of("Not signed in."));
            return ExitCodes.OK;
        }
        SignIn signIn = stored.get();
        List<String> text = new ArrayList<>();
        ObjectNode answer = root().mapper().createObjectNode().put("signed_out", true).put("username", signIn.username());
        if (everywhere) {
            // before the sign-in goes: revoking at the engine needs its token, and a failure keeps it for a retry
            text.addAll(revokeGrants(answer.putArray("revoked_grants")));
        }
        try {
            // Revoking the refresh token ends the session it belongs to, so a copy of the file is worthless too.
            new TokenClient(signIn.issuer()).revoke(ClientCredentials.publicClient(signIn.clientId()),
                    signIn.refreshToken().orElse(signIn.accessToken()));
        } catch (RuntimeException e) {
            root().err().println("continuum: could not revoke the sign-in at " + signIn.issuer() + " (" + e.getMessage()
                    + "); it stays valid there until it expires");
        }
        root().tokens().store().delete();
        text.add("Signed out " + signIn.username() + " (removed " + root().tokens().store().file() + ")");
        show(answer, text);
        return ExitCodes.OK;
    }

    private List<String> revokeGrants(ArrayNode revoked) {
        EngineClient engine = root().client();
        List<String> text = new ArrayList<>();
        for (JsonNode grant : engine.grants().path("grants")) {
            if (!"ACTIVE".equals(Render.text(grant, "status"))) {
                continue;
            }
            String id = Render.text(grant, "id");
            engine.revokeGrant(id);
            revoked.add(grant);
            text.add(GrantsCommand.revoked(grant));
        }
        if (text.isEmpty()) {
            text.add("No offline grants to revoke.");
        }
        return text;
    }
}
