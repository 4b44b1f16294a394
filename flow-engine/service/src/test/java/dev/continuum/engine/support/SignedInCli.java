package dev.continuum.engine.support;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.cli.Main;
import dev.continuum.cli.signin.BearerTokens;
import dev.continuum.cli.signin.SignInStore;
import io.restassured.RestAssured;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code continuum} CLI as a person uses it against this test engine: signed in as a demo user (the sign-in
 * file a {@code continuum login} would leave, in a config folder of its own), run in-process with the engine's
 * address, printing into strings.
 */
public final class SignedInCli {

    public record Result(int exitCode, String out, String err) {

        /** The output's last line, without its line break: the id {@code deploy} and {@code start} print. */
        public String lastLine() {
            String[] lines = out.strip().split("\n");
            return lines[lines.length - 1].strip();
        }
    }

    /** A command still going (one that waits for a person), with what it printed so far. */
    public record Running(StringWriter out, StringWriter err, CompletableFuture<Integer> exit) {

        public Result await() {
            try {
                return new Result(exit.get(60, TimeUnit.SECONDS), out.toString(), err.toString());
            } catch (Exception e) {
                throw new AssertionError("the command did not finish: " + e + "\nout: " + out + "\nerr: " + err, e);
            }
        }
    }

    private final Path configFolder;

    private SignedInCli(Path configFolder) {
        this.configFolder = configFolder;
    }

    /** Signed in as {@code user} (password grant of the CLI's client, which the local realm allows for tests). */
    public static SignedInCli as(String user) {
        try {
            Path folder = Files.createTempDirectory("continuum-cli-");
            TokenResponse tokens = Tokens.client().password(Tokens.CLI, user, user + "-local-only", "openid");
            new SignInStore(folder).save(BearerTokens.from(KeycloakServer.shared().issuer(), Tokens.CLI.clientId(), tokens, Instant.now()));
            return new SignedInCli(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Result run(String... args) {
        return start(args).await();
    }

    public Running start(String... args) {
        // picocli reads the default of --api from the process's environment, not the one passed in
        String[] line = new String[args.length + 2];
        line[0] = "--api";
        line[1] = "http://127.0.0.1:" + RestAssured.port;
        System.arraycopy(args, 0, line, 2, args.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> Main.run(line, new PrintWriter(out, true), new PrintWriter(err, true), environment()));
        return new Running(out, err, exit);
    }

    public boolean signedIn() {
        return new SignInStore(configFolder).load().isPresent();
    }

    /** A file in the CLI's folder, for the commands that read flows or inputs from files. */
    public Path file(String name, String content) {
        try {
            return Files.writeString(configFolder.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, String> environment() {
        return Map.of("CONTINUUM_CONFIG_DIR", configFolder.toString(), "CONTINUUM_AUTH_ISSUER", KeycloakServer.shared().issuer());
    }
}
