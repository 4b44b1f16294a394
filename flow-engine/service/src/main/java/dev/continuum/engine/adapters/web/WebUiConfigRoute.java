package dev.continuum.engine.adapters.web;

import dev.continuum.engine.adapters.auth.AuthConfig;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * What the browser needs before it can sign in: where the identity provider is and which public client to use.
 * Served without a token (it holds no secret: the client is public, PKCE protects the code) — the page must read
 * it to learn where to sign in. The UI's own files are static resources from the web-ui module's bundle.
 */
@ApplicationScoped
public class WebUiConfigRoute {

    public static final String PATH = "/ui/config.json";

    private final AuthConfig auth;
    private final WebUiConfig ui;

    public WebUiConfigRoute(AuthConfig auth, WebUiConfig ui) {
        this.auth = auth;
        this.ui = ui;
    }

    void route(@Observes Router router) {
        JsonObject config = new JsonObject()
                .put("auth_enabled", auth.enabled())
                .put("issuer", auth.issuer())
                .put("client_id", ui.clientId());
        router.get(PATH).handler(rc -> rc.response()
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(config.encode()));
    }
}
