package dev.continuum.engine.adapters.web;

import dev.continuum.engine.adapters.auth.AuthConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The identity provider's token endpoint on the engine's origin, for the web UI's public client only: the browser
 * trades its authorization code (with the PKCE verifier) or refresh token here instead of calling Keycloak across
 * origins, so Keycloak needs no CORS web origin for wherever the engine runs. It adds no credential — the client is
 * public — and forwards only the grant parameters of the two grants the UI uses. Bodies are never logged.
 */
@ApplicationScoped
public class WebUiTokenRoute {

    public static final String PATH = "/ui/token";
    private static final Set<String> GRANTS = Set.of("authorization_code", "refresh_token");
    private static final List<String> FORWARDED = List.of("grant_type", "code", "redirect_uri", "code_verifier", "refresh_token");

    private final AuthConfig auth;
    private final WebUiConfig ui;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public WebUiTokenRoute(AuthConfig auth, WebUiConfig ui) {
        this.auth = auth;
        this.ui = ui;
    }

    void route(@Observes Router router) {
        router.post(PATH).handler(BodyHandler.create().setBodyLimit(16_384)).handler(this::forward);
    }

    private void forward(RoutingContext rc) {
        MultiMap form = rc.request().formAttributes();
        // Set.of(...).contains(null) throws: a body without grant_type is refused like a wrong one, not a 500
        String grant = form.get("grant_type");
        if (grant == null || !GRANTS.contains(grant) || !ui.clientId().equals(form.get("client_id"))) {
            rc.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end("{\"error\":\"invalid_request\",\"error_description\":\"Only the web UI's client and its two grants "
                            + "(authorization_code, refresh_token) are passed on here.\"}");
            return;
        }
        String body = FORWARDED.stream().filter(form::contains)
                .map(name -> name + "=" + URLEncoder.encode(form.get(name), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&", "client_id=" + URLEncoder.encode(ui.clientId(), StandardCharsets.UTF_8) + "&", ""));
        HttpRequest request = HttpRequest.newBuilder(URI.create(auth.issuer() + "/protocol/openid-connect/token"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        Context context = Vertx.currentContext();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> context.runOnContext(ignored -> {
            if (failure != null) {
                rc.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end("{\"error\":\"temporarily_unavailable\",\"error_description\":\"The identity provider cannot be reached.\"}");
                return;
            }
            rc.response().setStatusCode(response.statusCode())
                    .putHeader(HttpHeaders.CONTENT_TYPE, response.headers().firstValue("Content-Type").orElse("application/json"))
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .end(response.body());
        }));
    }
}
