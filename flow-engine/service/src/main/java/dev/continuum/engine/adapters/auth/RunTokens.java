package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.app.AccessDenied;
import dev.continuum.engine.app.DelegationUnavailable;
import dev.continuum.engine.app.PersonGrants;
import dev.continuum.engine.app.ProviderTokens;
import dev.continuum.engine.app.SealedGrants;
import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.domain.ActionUrlMap;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.engine.domain.ProviderAudiences.Audience;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The engine's {@link ProviderTokens}: token exchange and renewal through {@link DelegatedTokens},
 * sealed grants in PostgreSQL, client credentials for {@code "RunAs": "Flow"}. Identity-provider and
 * database calls are blocking, so they run on worker threads and answer on the caller's Vert.x context.
 */
@ApplicationScoped
public class RunTokens implements ProviderTokens {

    private static final Logger LOG = Logger.getLogger(RunTokens.class);

    private record ServiceToken(String accessToken, Instant renewAt) {
        @Override
        public String toString() {
            return "ServiceToken[***]";
        }
    }

    private final boolean enabled;
    private final boolean hasClientSecret;
    private final Vertx vertx;
    private final Clock clock;
    private final ActionUrlMap urls;
    private final ProviderAudiences audiences;
    private final DelegatedTokens delegated;
    private final OfflineGrants offline;
    private final PersonGrants personGrants;
    private final TokenClient idp;
    private final Optional<ClientCredentials> flowClient;
    private final Map<String, ServiceToken> serviceTokens = new ConcurrentHashMap<>();

    public RunTokens(AuthConfig auth, ActionUrlMap urls, SelfUrl selfUrl, Vertx vertx, Clock clock,
                     SealedGrants grants, PersonGrants personGrants, OfflineGrants offline) {
        this.enabled = auth.enabled();
        this.hasClientSecret = auth.clientSecret().filter(secret -> !secret.isBlank()).isPresent();
        if (enabled && !hasClientSecret) {
            LOG.warn("continuum.auth.client-secret is not set: runs whose flows call action providers cannot start, because "
                    + "the engine cannot exchange tokens for them. Set CONTINUUM_AUTH_CLIENT_SECRET.");
        }
        this.vertx = vertx;
        this.clock = clock;
        this.urls = urls;
        // continuum-api: the realm's scope that puts the engine in a token's audience (as for triggers' grants)
        this.audiences = ProviderAudiences.parse(auth.providerAudiences().orElse(List.of()), selfUrl::providersBase,
                () -> selfUrl.base() + "/flows", new Audience(auth.clientId(), "continuum-api"));
        this.idp = new TokenClient(auth.issuer());
        ClientCredentials engine = ClientCredentials.confidential(auth.clientId(), auth.clientSecret().orElse(""));
        TokenVault vault = auth.vaultKey().map(TokenVault::fromBase64Key).orElseGet(() -> {
            if (auth.enabled()) {
                LOG.warn("continuum.auth.vault-key is not set: run grants are sealed with a per-process key, so after a "
                        + "restart every running run will ask its owner to sign in again. Set CONTINUUM_AUTH_VAULT_KEY.");
            }
            return TokenVault.ephemeral();
        });
        this.delegated = new DelegatedTokens(idp, engine, vault, grants, clock, auth.renewBefore());
        this.personGrants = personGrants;
        this.offline = offline;
        this.flowClient = auth.flowClientId().isPresent()
                ? Optional.of(ClientCredentials.confidential(auth.flowClientId().get(), auth.flowClientSecret().orElse("")))
                : auth.clientSecret().map(secret -> engine);
    }

    @Override
    public Uni<Void> delegate(UUID runId, Optional<String> userToken, Map<String, String> roleTokens, Collection<Call> calls) {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        Map<Principal, Set<Audience>> needed = new LinkedHashMap<>();
        for (Call call : calls) {
            Audience audience = audienceOf(call);
            if (call.principal().serviceAccount()) {
                if (flowClient.isEmpty()) {
                    throw EngineError.invalid("No flow service account", "State '" + call.stateName()
                            + "' runs as the flow's service account, but the engine has no client configured for it "
                            + "(continuum.auth.flow-client-id/-secret).", List.of());
                }
                continue; // client credentials are fetched when needed: nothing to exchange now
            }
            if (!call.principal().user() && !roleTokens.containsKey(call.principal().runAs())) {
                throw EngineError.invalidField("/run_as/" + call.principal().runAs(), "State '" + call.stateName()
                        + "' runs as '" + call.principal().runAs() + "': supply that role's access token here at run start.");
            }
            needed.computeIfAbsent(call.principal(), p -> new LinkedHashSet<>()).add(audience);
        }
        if (needed.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        if (!hasClientSecret) {
            throw new DelegationUnavailable("This engine cannot obtain provider tokens: continuum.auth.client-secret "
                    + "(CONTINUUM_AUTH_CLIENT_SECRET, the engine client's secret) is not set. Nothing was started.");
        }
        return blocking(() -> {
            if (userToken.isPresent() && actsThroughOfflineGrant(runId, userToken.get())) {
                needed.remove(Principal.USER);
            }
            needed.forEach((principal, wanted) -> exchange(runId, principal,
                    principal.user() ? userToken.orElseThrow(() -> new SignInRequired("Sign in: this run needs your token."))
                            : roleTokens.get(principal.runAs()), wanted));
            return null;
        });
    }

    /** The person gave the engine offline access: the run's own calls derive their tokens from that grant. */
    private boolean actsThroughOfflineGrant(UUID runId, String userToken) {
        Optional<String> person = JwtClaims.readUnverified(userToken).username();
        if (person.isPresent() && offline.link(runId, person.get())) {
            return true;
        }
        personGrants.unlink(runId); // a resume without a grant falls back to this sign-in's session
        return false;
    }

    private void exchange(UUID runId, Principal principal, String subjectToken, Set<Audience> wanted) {
        try {
            delegated.obtain(runId, principal.key(), subjectToken, wanted);
        } catch (SignInRequired | TokenRefusedException e) {
            if (!principal.user()) {
                throw EngineError.invalidField("/run_as/" + principal.runAs(), "The identity provider refused the token "
                        + "supplied for role '" + principal.runAs() + "' (" + e.getMessage() + "); supply a current access token for it.");
            }
            if (e instanceof SignInRequired signIn) {
                throw signIn;
            }
            throw new AccessDenied("The identity provider refused to issue provider tokens on your behalf ("
                    + ((TokenRefusedException) e).error() + "). The token must be meant for this engine, and the engine's "
                    + "client must be allowed the providers' scopes (docs/auth.md).");
        } catch (UncheckedIOException e) {
            throw new DelegationUnavailable("The identity provider could not be reached to obtain provider tokens; "
                    + "nothing was started. Try again shortly.");
        }
    }

    @Override
    public boolean tokenless() {
        return !enabled;
    }

    @Override
    public Uni<Optional<String>> bearer(UUID runId, String actionUrl, String runAs) {
        if (!enabled) {
            return Uni.createFrom().item(Optional.empty());
        }
        Principal principal = Principal.of(runAs);
        Audience audience = audiences.of(urls.resolve(actionUrl)).orElse(null);
        if (audience == null) {
            return Uni.createFrom().failure(new SignInRequired("Consent required: no provider client is configured for "
                    + actionUrl + " (continuum.auth.provider-audiences), so no token can be had for it."));
        }
        if (principal.serviceAccount()) {
            return serviceToken(audience).map(Optional::of);
        }
        Optional<String> cached = delegated.cached(runId, principal.key(), audience);
        if (cached.isPresent()) {
            return Uni.createFrom().item(cached);
        }
        // a run acting through a person's offline grant asks it afresh at every call, so a revocation shows at once
        return blocking(() -> Optional.of(principal.user()
                ? offline.tokenFor(runId, audience).orElseGet(() -> delegated.tokenFor(runId, principal.key(), audience))
                : delegated.tokenFor(runId, principal.key(), audience)));
    }

    private Uni<String> serviceToken(Audience audience) {
        ServiceToken known = serviceTokens.get(audience.clientId());
        if (known != null && known.renewAt().isAfter(clock.instant())) {
            return Uni.createFrom().item(known.accessToken());
        }
        return blocking(() -> {
            TokenResponse answer;
            try {
                answer = idp.clientCredentials(flowClient.orElseThrow(), audience.scope());
            } catch (TokenRefusedException e) {
                throw new SignInRequired("Consent required: the flow's service account was refused a token for "
                        + audience.clientId() + " (" + e.error() + ").");
            }
            serviceTokens.put(audience.clientId(), new ServiceToken(answer.accessToken(), delegated.renewAt(answer)));
            return answer.accessToken();
        });
    }

    @Override
    public Uni<Void> forget(UUID runId) {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        return blocking(() -> {
            delegated.forget(runId);
            personGrants.unlink(runId);
            return null;
        });
    }

    private Audience audienceOf(Call call) {
        return audiences.of(urls.resolve(call.actionUrl())).orElseThrow(() -> EngineError.invalid(
                "Unknown provider", "State '" + call.stateName() + "' calls " + call.actionUrl()
                        + ", and the engine does not know which identity-provider client that provider is, so it cannot "
                        + "obtain a token for it. Add 'prefix=>client-id scope' to continuum.auth.provider-audiences.",
                List.of(new EngineError.FieldIssue("/States/" + call.stateName() + "/ActionUrl", "unknown provider audience"))));
    }

    /** Blocking work on a worker thread; the result comes back on the caller's Vert.x context. */
    private <T> Uni<T> blocking(Supplier<T> work) {
        return Uni.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            java.util.concurrent.Callable<T> call = work::get;
            var done = context != null ? context.executeBlocking(call, false) : vertx.executeBlocking(call, false);
            return Uni.createFrom().completionStage(done.toCompletionStage());
        });
    }
}
