package dev.continuum.auth.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Talks to one OIDC issuer's token endpoint (Keycloak layout: {@code <issuer>/protocol/openid-connect/token}).
 * Blocking JDK HTTP: call it from a worker thread, never from an event loop.
 */
public final class TokenClient {

    public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    public static final String REFRESH_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:refresh_token";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String issuer;
    private final HttpClient http;
    private final Duration timeout;

    public TokenClient(String issuer) {
        this(issuer, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), Duration.ofSeconds(15));
    }

    public TokenClient(String issuer, HttpClient http, Duration timeout) {
        this.issuer = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        this.http = http;
        this.timeout = timeout;
    }

    public String issuer() {
        return issuer;
    }

    public URI tokenEndpoint() {
        return URI.create(issuer + "/protocol/openid-connect/token");
    }

    /** Resource-owner password grant: local tests and scripts only (the realm allows it for continuum-cli). */
    public TokenResponse password(ClientCredentials client, String username, String password, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "password");
        form.put("username", username);
        form.put("password", password);
        putIfPresent(form, "scope", scope);
        return post(client, form);
    }

    /** A service account's own token (instruments, the engine acting as itself). */
    public TokenResponse clientCredentials(ClientCredentials client, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        putIfPresent(form, "scope", scope);
        return post(client, form);
    }

    /**
     * RFC 8693 standard token exchange: a token for {@code audience} acting for the subject token's
     * user. With {@code withRefresh} the answer also carries a refresh token (Keycloak:
     * client attribute {@code standard.token.exchange.enableRefreshRequestedTokenType}).
     */
    public TokenResponse exchange(ClientCredentials client, String subjectToken, String audience, String scope,
                                  boolean withRefresh) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", TOKEN_EXCHANGE);
        form.put("subject_token", subjectToken);
        form.put("subject_token_type", ACCESS_TOKEN_TYPE);
        form.put("requested_token_type", withRefresh ? REFRESH_TOKEN_TYPE : ACCESS_TOKEN_TYPE);
        putIfPresent(form, "audience", audience);
        putIfPresent(form, "scope", scope);
        return post(client, form);
    }

    public static final String DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code";

    /** RFC 8628 step 1: asks for a user code the person confirms in a browser (the CLI's sign-in). */
    public DeviceAuthorization deviceAuthorization(ClientCredentials client, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        putIfPresent(form, "scope", scope);
        JsonNode body = send(client, URI.create(issuer + "/protocol/openid-connect/auth/device"), form);
        return new DeviceAuthorization(body.path("device_code").asText(), body.path("user_code").asText(),
                body.path("verification_uri").asText(), Optional.ofNullable(body.path("verification_uri_complete").asText(null)),
                Duration.ofSeconds(body.path("expires_in").asLong(600)), Duration.ofSeconds(Math.max(1, body.path("interval").asLong(5))));
    }

    /**
     * RFC 8628 step 2, one poll: the tokens once the person approved. Until then it throws
     * {@link TokenRefusedException} with {@code authorization_pending} or {@code slow_down}; a refusal
     * is {@code access_denied}, a code that ran out {@code expired_token}.
     */
    public TokenResponse deviceToken(ClientCredentials client, String deviceCode) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", DEVICE_CODE);
        form.put("device_code", deviceCode);
        return post(client, form);
    }

    /** Authorization-code grant: the code the identity provider sent back to {@code redirectUri}. */
    public TokenResponse authorizationCode(ClientCredentials client, String code, String redirectUri) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        return post(client, form);
    }

    /** Where a browser goes to sign in and consent (Keycloak layout: {@code <issuer>/protocol/openid-connect/auth}). */
    public URI authorizationEndpoint(String clientId, String redirectUri, String scope, String state) {
        return URI.create(issuer + "/protocol/openid-connect/auth?response_type=code&client_id=" + enc(clientId)
                + "&redirect_uri=" + enc(redirectUri) + "&scope=" + enc(scope) + "&state=" + enc(state));
    }

    public TokenResponse refresh(ClientCredentials client, String refreshToken, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refreshToken);
        putIfPresent(form, "scope", scope);
        return post(client, form);
    }

    /** RFC 7009: revokes a refresh (or offline) token and, in Keycloak, the tokens derived from it. */
    public void revoke(ClientCredentials client, String token) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("token", token);
        form.put("token_type_hint", "refresh_token");
        send(client, URI.create(issuer + "/protocol/openid-connect/revoke"), form);
    }

    private TokenResponse post(ClientCredentials client, Map<String, String> form) {
        JsonNode body = send(client, tokenEndpoint(), form);
        return new TokenResponse(body.path("access_token").asText(),
                Optional.ofNullable(body.path("refresh_token").asText(null)),
                Duration.ofSeconds(body.path("expires_in").asLong(0)),
                body.path("refresh_expires_in").isNumber() && body.path("refresh_expires_in").asLong() > 0
                        ? Optional.of(Duration.ofSeconds(body.path("refresh_expires_in").asLong())) : Optional.empty(),
                body.path("scope").asText(""), body.path("issued_token_type").asText(""));
    }

    private JsonNode send(ClientCredentials client, URI endpoint, Map<String, String> form) {
        Map<String, String> full = new LinkedHashMap<>(form);
        full.put("client_id", client.clientId());
        client.secret().ifPresent(secret -> full.put("client_secret", secret));
        String encoded = full.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(encoded)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
            if (response.statusCode() / 100 != 2) {
                throw new TokenRefusedException(response.statusCode(), body.path("error").asText("http_" + response.statusCode()),
                        body.path("error_description").asText(""));
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException("identity provider " + issuer + " did not answer: "
                    + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the identity provider", e);
        }
    }

    private static void putIfPresent(Map<String, String> form, String name, String value) {
        if (value != null && !value.isBlank()) {
            form.put(name, value);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
