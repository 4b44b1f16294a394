package dev.continuum.auth.keycloak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The few Keycloak admin REST calls tests and {@code up} need: add a client, sign a user out
 * everywhere (which revokes the grants runs hold). Signs in as the master realm's bootstrap admin.
 */
public final class KeycloakAdmin {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KeycloakServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public KeycloakAdmin(KeycloakServer server) {
        this.server = server;
    }

    /** Creates a client in the Continuum realm from its JSON representation; ignores "already exists". */
    public void createClient(String clientJson) {
        HttpResponse<String> response = call("POST", "/clients", clientJson);
        if (response.statusCode() != 201 && response.statusCode() != 409) {
            throw new IllegalStateException("creating client failed: HTTP " + response.statusCode() + " " + response.body());
        }
    }

    /** Ends every session of the user, including offline ones: refresh tokens derived from them stop working. */
    public void signOutEverywhere(String username) {
        String id = userId(username);
        HttpResponse<String> response = call("POST", "/users/" + id + "/logout", null);
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("logout failed: HTTP " + response.statusCode() + " " + response.body());
        }
        try {
            JsonNode consents = JSON.readTree(call("GET", "/users/" + id + "/consents", null).body());
            for (JsonNode consent : consents) {
                call("DELETE", "/users/" + id + "/consents/" + consent.path("clientId").asText(), null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends the user's sign-in sessions (browser, CLI) and leaves their offline sessions alone, as signing out does. */
    public void endSignInSessions(String username) {
        try {
            for (JsonNode session : JSON.readTree(call("GET", "/users/" + userId(username) + "/sessions", null).body())) {
                call("DELETE", "/sessions/" + session.path("id").asText(), null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Changes realm settings (e.g. session lifetimes) from a partial JSON representation. */
    public void updateRealm(String partialRealmJson) {
        HttpResponse<String> response = call("PUT", "", partialRealmJson);
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("updating the realm failed: HTTP " + response.statusCode() + " " + response.body());
        }
    }

    /** Revokes what the user granted the client, offline tokens included (the account console's "Revoke"). */
    public void revokeConsent(String username, String clientId) {
        HttpResponse<String> response = call("DELETE", "/users/" + userId(username) + "/consents/" + clientId, null);
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("revoking consent failed: HTTP " + response.statusCode() + " " + response.body());
        }
    }

    public String userId(String username) {
        try {
            JsonNode users = JSON.readTree(call("GET", "/users?exact=true&username="
                    + URLEncoder.encode(username, StandardCharsets.UTF_8), null).body());
            if (!users.isArray() || users.isEmpty()) {
                throw new IllegalArgumentException("no user " + username + " in realm " + KeycloakServer.REALM);
            }
            return users.get(0).path("id").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> call(String method, String path, String body) {
        String token = new TokenClient(server.issuer("master"))
                .password(ClientCredentials.publicClient("admin-cli"), server.adminUser(), server.adminPassword(), null)
                .accessToken();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/admin/realms/" + KeycloakServer.REALM + path))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Keycloak admin call " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
