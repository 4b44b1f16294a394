package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import dev.continuum.engine.config.EngineConfig;

/** Until Keycloak is wired in (auth issue), every request acts as one configured local user. */
@DefaultBean
@ApplicationScoped
public class LocalCaller implements CurrentCaller {

    private final String user;

    public LocalCaller(EngineConfig config) {
        this.user = config.localUser();
    }

    @Override
    public String userId() {
        return user;
    }
}
