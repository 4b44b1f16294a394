package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.config.EngineConfig;
import dev.continuum.provider.server.Https;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Makes the engine's HTTPS clients (provider calls, the planner, webhooks) trust {@code continuum.tls-ca-file}
 * ({@code CONTINUUM_TLS_CA_FILE}) besides the JVM's CAs, first thing at start-up (docs/operations.md "Encrypted links").
 */
@ApplicationScoped
public class TrustedCa {

    private static final Logger LOG = Logger.getLogger(TrustedCa.class);

    void trust(@Observes @Priority(1) StartupEvent started, EngineConfig config) {
        Https.trustCa(config.tlsCaFile().orElse(null), "continuum.tls-ca-file")
                .ifPresent(ca -> LOG.infof("HTTPS clients trust the CA in %s", ca));
    }
}
