package dev.continuum.engine.adapters.web;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The web UI (module web-ui), served on this engine's origin. Beside EngineConfig, as AuthConfig is. */
@ConfigMapping(prefix = "continuum.ui")
public interface WebUiConfig {

    /** The identity provider's public client the browser signs in with (authorization code + PKCE, no secret). */
    @WithDefault("continuum-web")
    String clientId();

    /**
     * The placement planner service (placement/planner-service, e.g. http://127.0.0.1:8083) whose decisions the run page shows
     * ("where each job ran and why"); the engine asks it on the browser's behalf, so the page stays on one origin.
     * The devices and clusters page reads its inventory and decision log through {@code /ops/planner/...} too.
     * Unset: the pages say no planner is configured.
     */
    java.util.Optional<java.net.URI> plannerUrl();

    /**
     * How often the live views (server-sent events under /live) look for changes the run-event stream does not carry
     * (another instance's commits, edits with PUT); changes committed here are sent at once, without waiting for it.
     */
    @WithDefault("5s")
    Duration liveInterval();
}
