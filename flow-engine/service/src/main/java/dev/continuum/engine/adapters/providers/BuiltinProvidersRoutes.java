package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.adapters.auth.AuthConfig;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.builtin.BuiltinOptions;
import dev.continuum.provider.builtin.BuiltinProviders;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Serves echo, sleep, expression and notify beside the engine, so a laptop needs nothing else. With
 * authentication on they accept only tokens for {@code continuum-provider-builtin} with scope
 * {@code actions:builtin}. The engine calls them in process: an ActionUrl that resolves to this
 * engine's own {@code /providers/NAME} skips HTTP (same token check and answers, a fraction of the CPU).
 */
@ApplicationScoped
public class BuiltinProvidersRoutes {

    private final SelfUrl self;
    private volatile Map<String, LocalProvider> local = Map.of();

    public BuiltinProvidersRoutes(SelfUrl self) {
        this.self = self;
    }

    void mount(@Observes Router router, Vertx vertx, EngineConfig config, AuthConfig auth) {
        if (config.providers().builtinEnabled()) {
            // Released actions of the built-ins keep their request_id bound for two leases, not the SDK's ten minutes:
            // the engine calls them in process, and at its own rate (hundreds a second) ten minutes of kept actions
            // would fill its heap. Two leases cover a late call from another engine that reaches them over HTTP.
            BuiltinOptions options = BuiltinOptions.defaults()
                    .withReleasedRetention(config.runs().leaseDuration().multipliedBy(2));
            if (auth.enabled()) {
                // The engine's own providers check tokens as any other provider does: issuer, audience, scope.
                options = options.withCallerResolver(JwtCallerResolver.keycloakLazily(auth.issuer(),
                        ProviderAudiences.BUILTIN.clientId(), Optional.of(ProviderAudiences.BUILTIN.scope())));
            }
            if (config.providers().echoEffectsLog().isPresent()) {
                options = options.withEffectsLog(Path.of(config.providers().echoEffectsLog().get()));
            }
            local = BuiltinProviders.mountAll(router, "/providers", vertx, options);
        }
    }

    /** The built-in provider at {@code providerUrl}, when that URL is this engine's own (as it is for their tokens). */
    public Optional<LocalProvider> at(String providerUrl) {
        if (local.isEmpty()) {
            return Optional.empty();
        }
        return ProviderAudiences.under(providerUrl, self.providersBase())
                .map(name -> name.endsWith("/") ? name.substring(0, name.length() - 1) : name)
                .map(local::get);
    }
}
