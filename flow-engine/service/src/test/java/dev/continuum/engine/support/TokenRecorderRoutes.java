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
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A provider ({@code /providers/tokens}) that keeps every bearer token it receives with the moment it came, then
 * checks it as the built-ins do, and answers {@code {"done": <flag the test sets>}} so a flow can loop on it.
 */
@ApplicationScoped
public class TokenRecorderRoutes {

    /** A token as the provider received it. */
    public record Received(String token, Instant at) {
        @Override
        public String toString() {
            return "Received[***, " + at + "]";
        }
    }

    public static final List<Received> RECEIVED = new CopyOnWriteArrayList<>();
    public static final AtomicBoolean DONE = new AtomicBoolean();

    void mount(@Observes Router router, Vertx vertx, AuthConfig auth) {
        ProviderServerOptions options = ProviderServerOptions.of(vertx);
        if (auth.enabled()) {
            CallerResolver check = JwtCallerResolver.keycloakLazily(auth.issuer(), ProviderAudiences.BUILTIN.clientId(),
                    Optional.of(ProviderAudiences.BUILTIN.scope()));
            options = options.withCallerResolver(new CallerResolver() {
                @Override
                public Caller resolve(RoutingContext rc) {
                    keep(rc.request().getHeader("Authorization"));
                    return check.resolve(rc);
                }

                @Override
                public Caller resolveAuthorization(String authorization) {
                    keep(authorization);
                    return check.resolveAuthorization(authorization);
                }
            });
        }
        ActionProviderServer.mount(router, "/providers/tokens", new ActionProvider() {
            @Override
            public ProviderDescription describe() {
                return ProviderDescription.builder("Token recorder").scope("urn:continuum:test:tokens").synchronous(true).build();
            }

            @Override
            public ActionStatus start(ActionRequest request, ActionContext ctx) {
                return ctx.succeeded(JsonNodeFactory.instance.objectNode().put("caller", ctx.caller().id()).put("done", DONE.get()));
            }
        }, options);
    }

    private static void keep(String authorization) {
        if (authorization != null && authorization.startsWith("Bearer ")) {
            RECEIVED.add(new Received(authorization.substring("Bearer ".length()), Instant.now()));
        }
    }
}
