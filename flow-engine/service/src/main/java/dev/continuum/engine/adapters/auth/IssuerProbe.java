package dev.continuum.engine.adapters.auth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * One look at the issuer's discovery document at start, so an engine pointed at an identity provider
 * that is down or mistyped says so in one readable line (quarkus-oidc's own report is a stack trace,
 * silenced in application.properties). Start-up does not wait for it: the first request retries.
 */
final class IssuerProbe {

    private IssuerProbe() {}

    /** Empty when the discovery document answers 200; otherwise what went wrong, in a few words. */
    static Optional<String> problem(String issuer) {
        URI discovery;
        try {
            discovery = URI.create(issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration");
        } catch (IllegalArgumentException e) {
            return Optional.of("not a URL: " + e.getMessage());
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        try {
            int status = http.send(HttpRequest.newBuilder(discovery).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            return status == 200 ? Optional.empty() : Optional.of(discovery + " answered HTTP " + status + "; is the realm name right?");
        } catch (IOException e) {
            return Optional.of(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        } catch (IllegalArgumentException e) {
            return Optional.of("not an http(s) URL");
        }
    }
}
