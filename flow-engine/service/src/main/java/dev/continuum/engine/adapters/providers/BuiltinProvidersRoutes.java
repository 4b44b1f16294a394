package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.adapters.auth.AuthConfig;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.builtin.BuiltinOptions;
import dev.continuum.provider.builtin.BuiltinProviders;
import dev.continuum.provider.server.PostgresActionStore;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Serves echo, sleep, expression and notify beside the engine, so a laptop needs nothing else. With
 * authentication on they accept only tokens for {@code continuum-provider-builtin} with scope
 * {@code actions:builtin}. The engine calls them in process: an ActionUrl that resolves to this
 * engine's own {@code /providers/NAME} skips HTTP (same token check and answers, a fraction of the CPU).
 * <p>
 * Each keeps its actions in the engine's database, shared by every engine (ADR 0032): a takeover or a restart that
 * repeats a request_id finds the action another engine (or this one's previous life) started — notify sends no
 * second webhook, sleep does not start its wait again, and every one answers the same action id. With
 * {@code continuum.providers.builtin-action-store=memory} echo, sleep and expression keep theirs in this process.
 */
@ApplicationScoped
public class BuiltinProvidersRoutes {

    /** Up to this many connections serve the four built-ins' actions together. */
    private static final int STORE_CONNECTIONS = 8;

    private final SelfUrl self;
    private final String jdbcUrl;
    private final String dbUser;
    private final Optional<String> dbPassword;
    private volatile Map<String, LocalProvider> local = Map.of();
    private volatile Optional<PostgresActionStore> stores = Optional.empty();

    public BuiltinProvidersRoutes(SelfUrl self, @ConfigProperty(name = "quarkus.datasource.jdbc.url") String jdbcUrl,
                                  @ConfigProperty(name = "quarkus.datasource.username") String dbUser,
                                  @ConfigProperty(name = "quarkus.datasource.password") Optional<String> dbPassword) {
        this.self = self;
        this.jdbcUrl = jdbcUrl;
        this.dbUser = dbUser;
        this.dbPassword = dbPassword;
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
            // Its lease is the runs' lease: an action whose engine died is adopted (and its send resumed) as soon as
            // the dead engine's runs are taken over.
            // One table per provider (PostgresActionStore creates it when missing), so an action id is answered only
            // at the provider that made it; notify's store owns the pool the others share.
            PostgresActionStore notify = new PostgresActionStore(jdbcUrl, dbUser, dbPassword.orElse(""), tableOf("notify"),
                    config.instanceId().orElse("engine-" + UUID.randomUUID()), config.runs().leaseDuration(), STORE_CONNECTIONS);
            for (String name : sharedStoreNames(config.providers().builtinActionStore())) {
                options = options.withStore(name, name.equals("notify") ? notify : notify.beside(tableOf(name)));
            }
            stores = Optional.of(notify);
            if (config.providers().echoEffectsLog().isPresent()) {
                options = options.withEffectsLog(Path.of(config.providers().echoEffectsLog().get()));
            }
            local = BuiltinProviders.mountAll(router, "/providers", vertx, options);
        }
    }

    void close(@Observes ShutdownEvent stop) {
        stores.ifPresent(PostgresActionStore::close);
    }

    /** The built-ins whose actions live in the database: all of them, or notify alone when the others are in memory. */
    private static List<String> sharedStoreNames(EngineConfig.BuiltinActionStore where) {
        return where == EngineConfig.BuiltinActionStore.MEMORY ? List.of("notify") : BuiltinProviders.NAMES;
    }

    /** The table of a built-in's actions: {@code builtin_notify_actions} for notify, and so on. */
    static String tableOf(String provider) {
        return "builtin_" + provider + "_actions";
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
