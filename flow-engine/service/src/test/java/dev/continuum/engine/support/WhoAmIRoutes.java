package dev.continuum.engine.support;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.adapters.auth.AuthConfig;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.Optional;

/**
 * A provider beside the built-ins ({@code /providers/whoami}) that succeeds with the caller its verified
 * token names, so tests can see on whose behalf the engine called. Same token check as the built-ins.
 */
@ApplicationScoped
public class WhoAmIRoutes {

    void mount(@Observes Router router, Vertx vertx, AuthConfig auth) {
        ProviderServerOptions options = ProviderServerOptions.of(vertx);
        if (auth.enabled()) {
            options = options.withCallerResolver(JwtCallerResolver.keycloakLazily(auth.issuer(),
                    ProviderAudiences.BUILTIN.clientId(), Optional.of(ProviderAudiences.BUILTIN.scope())));
        }
        ActionProviderServer.mount(router, "/providers/whoami", new ActionProvider() {
            @Override
            public ProviderDescription describe() {
                return ProviderDescription.builder("Who am I").scope("urn:continuum:test:whoami").synchronous(true).build();
            }

            @Override
            public ActionStatus start(ActionRequest request, ActionContext ctx) {
                return ctx.succeeded(JsonNodeFactory.instance.objectNode().put("caller", ctx.caller().id()));
            }
        }, options);
    }
}
