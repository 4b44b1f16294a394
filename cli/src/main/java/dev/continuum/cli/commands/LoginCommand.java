package dev.continuum.cli.commands;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.DeviceAuthorization;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import dev.continuum.cli.signin.BearerTokens;
import dev.continuum.cli.signin.SignIn;
import dev.continuum.cli.signin.SignInNeeded;
import dev.continuum.cli.UsageProblem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

@Command(name = "login", mixinStandardHelpOptions = true,
        description = {"Sign in: prints an address and a code to confirm in a browser (OAuth device authorization, "
                + "client continuum-cli), then keeps the tokens in your config folder (mode 600) for the other commands.",
                "Scripts and instruments: set CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET instead (client credentials; "
                        + "nothing is stored); `login --client-credentials` checks them."})
public final class LoginCommand extends EngineCommand {

    @Option(names = "--issuer", paramLabel = "URL",
            description = "The identity provider (Keycloak realm URL); default $CONTINUUM_AUTH_ISSUER, else the one `continuum up` starts ("
                    + BearerTokens.DEFAULT_ISSUER + ").")
    String issuer;

    @Option(names = "--client-credentials", description = "Check the service account in CONTINUUM_CLIENT_ID / CONTINUUM_CLIENT_SECRET instead of signing a person in.")
    boolean clientCredentials;

    @Option(names = "--offline", description = {"Also give the engine offline access, so your runs keep acting for you after you sign out "
            + "(authorization code with offline_access, shown as a consent in the browser); signs you in first if you are not.",
            "See them with `continuum grants`."})
    boolean offline;

    @Override
    public Integer call() throws InterruptedException {
        if (clientCredentials) {
            return checkServiceAccount();
        }
        Optional<SignIn> signedIn = root().tokens().store().load();
        SignIn signIn = offline && signedIn.isPresent() ? signedIn.get() : signInOnDevice();
        if (!offline) {
            show(root().mapper().createObjectNode().put("username", signIn.username()).put("issuer", signIn.issuer())
                    .put("kept_in", root().tokens().store().file().toString()), List.of("Signed in as " + signIn.username()
                    + " at " + signIn.issuer() + " (kept in " + root().tokens().store().file() + ")"));
            return ExitCodes.OK;
        }
        JsonNode grant = new OfflineConsent(root(), prompts()).give();
        show(grant, List.of("Offline access given: grant " + Render.text(grant, "id") + " for " + signIn.username()
                + " (see `continuum grants`, revoke with `continuum grants revoke " + Render.text(grant, "id") + "`)"));
        return ExitCodes.OK;
    }

    private SignIn signInOnDevice() throws InterruptedException {
        if (issuer == null || issuer.isBlank()) {
            issuer = BearerTokens.issuer(root().environment());
        }
        TokenClient idp = new TokenClient(issuer);
        DeviceAuthorization device;
        try {
            device = idp.deviceAuthorization(BearerTokens.CLI, "openid");
        } catch (UncheckedIOException e) {
            throw BearerTokens.unreachable(issuer, e);
        } catch (TokenRefusedException e) {
            throw new SignInNeeded(issuer + " does not offer device sign-in to continuum-cli (" + e.getMessage() + ")");
        }
        PrintWriter say = prompts();
        say.println("To sign in, open this address in a browser and confirm the code " + device.userCode() + ":");
        say.println("  " + device.verificationUriComplete().orElse(device.verificationUri()));
        say.println("Waiting for you (up to " + device.expiresIn().toMinutes() + " min) ...");
        say.flush();
        TokenResponse tokens = await(idp, device);
        SignIn signIn = BearerTokens.from(issuer, BearerTokens.CLI.clientId(), tokens, Instant.now());
        root().tokens().store().save(signIn);
        if (offline) {
            prompts().println("Signed in as " + signIn.username() + " at " + issuer);
        }
        return signIn;
    }

    private TokenResponse await(TokenClient idp, DeviceAuthorization device) throws InterruptedException {
        Instant deadline = Instant.now().plus(device.expiresIn());
        Duration interval = device.interval();
        while (Instant.now().isBefore(deadline)) {
            Thread.sleep(interval);
            try {
                return idp.deviceToken(BearerTokens.CLI, device.deviceCode());
            } catch (TokenRefusedException e) {
                switch (e.error()) {
                    case "authorization_pending" -> { }
                    case "slow_down" -> interval = interval.plusSeconds(5);   // RFC 8628 §3.5
                    case "access_denied" -> throw new SignInNeeded("the sign-in was refused in the browser");
                    case "expired_token" -> throw expired();
                    default -> throw new SignInNeeded("sign-in failed: " + e.getMessage());
                }
            } catch (UncheckedIOException e) {
                throw new SignInNeeded("lost the identity provider at " + issuer + " while waiting: " + e.getMessage());
            }
        }
        throw expired();
    }

    private static SignInNeeded expired() {
        return new SignInNeeded("the code was not confirmed in time; run `continuum login` again");
    }

    private Integer checkServiceAccount() {
        ClientCredentials client = BearerTokens.serviceAccount(root().environment()).orElseThrow(() -> new UsageProblem(
                "--client-credentials needs CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET in the environment"));
        String token = root().tokens().serviceToken(client);
        String who = dev.continuum.auth.oidc.JwtClaims.readUnverified(token).username().orElse(client.clientId());
        out().println("Service account " + client.clientId() + " signs in as " + who + " at " + BearerTokens.issuer(root().environment())
                + "; every command fetches its own token (nothing is stored).");
        return ExitCodes.OK;
    }
}
