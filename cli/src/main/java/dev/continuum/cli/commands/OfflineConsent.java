package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ContinuumCommand;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.output.Render;
import dev.continuum.cli.signin.SignIn;
import dev.continuum.cli.signin.SignInNeeded;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Walks a person through giving the engine offline access (docs/auth.md): says what the engine may then do and until
 * when, prints the consent address, and waits until the engine has stored the new grant.
 */
final class OfflineConsent {

    /** The engine forgets a consent that was begun but not finished after ten minutes. */
    private static final Duration PATIENCE = Duration.ofMinutes(10);
    private static final Duration POLL = Duration.ofSeconds(1);

    private final ContinuumCommand root;
    private final PrintWriter prompts;

    OfflineConsent(ContinuumCommand root, PrintWriter prompts) {
        this.root = root;
        this.prompts = prompts;
    }

    /** The new grant as {@code GET /grants} lists it. */
    JsonNode give() throws InterruptedException {
        EngineClient engine = root.client();
        Set<String> earlier = new HashSet<>();
        engine.grants().path("grants").forEach(g -> earlier.add(Render.text(g, "id")));
        PrintWriter say = prompts;
        String who = root.tokens().store().load().map(SignIn::username).orElse("you");
        say.println("Offline access lets the engine at " + engine.api() + " act as " + who + " in the runs " + who
                + " starts or resumes: it calls the providers those flows name with " + who + "'s identity, also while "
                + who + " is signed out.");
        say.println("It lasts until you revoke it (`continuum grants revoke GRANT_ID`, or `continuum logout --everywhere`),"
                + " or until the identity provider ends it: Keycloak ends an offline grant unused for the realm's offline"
                + " session idle time and at its offline session maximum (the local realm: 30 days unused, 90 days at most).");
        String address = engine.beginConsent().path("authorization_url").asText();
        say.println("To consent, open this address in a browser, sign in and allow access:");
        say.println("  " + address);
        say.println("Waiting for you (up to " + PATIENCE.toMinutes() + " min) ...");
        say.flush();
        Instant deadline = Instant.now().plus(PATIENCE);
        while (Instant.now().isBefore(deadline)) {
            Thread.sleep(POLL);
            Optional<JsonNode> added = newActive(engine.grants(), earlier);
            if (added.isPresent()) {
                return added.get();
            }
        }
        throw new SignInNeeded("the consent was not finished within " + PATIENCE.toMinutes()
                + " min; run `continuum login --offline` again");
    }

    private static Optional<JsonNode> newActive(JsonNode grants, Set<String> earlier) {
        for (JsonNode grant : grants.path("grants")) {
            if ("ACTIVE".equals(Render.text(grant, "status")) && !earlier.contains(Render.text(grant, "id"))) {
                return Optional.of(grant);
            }
        }
        return Optional.empty();
    }
}
