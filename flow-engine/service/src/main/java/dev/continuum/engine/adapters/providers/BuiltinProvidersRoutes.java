package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.config.EngineConfig;
import dev.continuum.provider.builtin.BuiltinOptions;
import dev.continuum.provider.builtin.BuiltinProviders;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.nio.file.Path;

/** Serves echo, sleep, expression and notify beside the engine, so a laptop needs nothing else. */
@ApplicationScoped
public class BuiltinProvidersRoutes {

    void mount(@Observes Router router, Vertx vertx, EngineConfig config) {
        if (config.providers().builtinEnabled()) {
            BuiltinOptions options = BuiltinOptions.defaults();
            if (config.providers().echoEffectsLog().isPresent()) {
                options = options.withEffectsLog(Path.of(config.providers().echoEffectsLog().get()));
            }
            BuiltinProviders.mountAll(router, "/providers", vertx, options);
        }
    }
}
