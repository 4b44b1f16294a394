package dev.continuum.cli.commands;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.signin.SignIn;
import picocli.CommandLine.Command;

import java.util.Optional;

@Command(name = "logout", mixinStandardHelpOptions = true,
        description = "Sign out: revokes the stored sign-in at the identity provider and removes it from your config folder.")
public final class LogoutCommand extends EngineCommand {

    @Override
    public Integer call() {
        Optional<SignIn> stored = root.tokens().store().load();
        if (stored.isEmpty()) {
            out().println("Not signed in.");
            return ExitCodes.OK;
        }
        SignIn signIn = stored.get();
        try {
            // Revoking the refresh token ends the session it belongs to, so a copy of the file is worthless too.
            new TokenClient(signIn.issuer()).revoke(ClientCredentials.publicClient(signIn.clientId()),
                    signIn.refreshToken().orElse(signIn.accessToken()));
        } catch (RuntimeException e) {
            root.err().println("continuum: could not revoke the sign-in at " + signIn.issuer() + " (" + e.getMessage()
                    + "); it stays valid there until it expires");
        }
        root.tokens().store().delete();
        out().println("Signed out " + signIn.username() + " (removed " + root.tokens().store().file() + ")");
        return ExitCodes.OK;
    }
}
