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

    /** How often the live views (server-sent events under /live) look for changes. */
    @WithDefault("1s")
    Duration liveInterval();
}
