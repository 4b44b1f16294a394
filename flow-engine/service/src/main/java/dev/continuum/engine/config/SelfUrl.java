package dev.continuum.engine.config;

import jakarta.enterprise.context.ApplicationScoped;
import io.quarkus.runtime.LaunchMode;
import org.eclipse.microprofile.config.ConfigProvider;

/** Where providers reach this engine: built-in providers and push callbacks hang off it. */
@ApplicationScoped
public class SelfUrl {

    private final EngineConfig config;

    public SelfUrl(EngineConfig config) {
        this.config = config;
    }

    public String base() {
        return config.selfUrl().orElseGet(() -> {
            // Read lazily: with port 0 the real port is only known once the HTTP server listens.
            String key = LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port" : "quarkus.http.port";
            int port = ConfigProvider.getConfig().getOptionalValue(key, Integer.class).orElse(8080);
            return "http://127.0.0.1:" + port;
        });
    }

    public String providersBase() {
        return base() + "/providers";
    }
}
