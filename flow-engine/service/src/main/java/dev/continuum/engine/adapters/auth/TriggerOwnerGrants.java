package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.engine.app.AccessDenied;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.SealedGrants;
import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.app.triggers.OwnerGrants;
import dev.continuum.engine.domain.ProviderAudiences.Audience;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The owner's grant a trigger keeps (ADR 0005, as for runs): at create the owner's token is exchanged for a
 * renewable token meant for the engine itself, sealed in run_grants under the trigger's id. Each fire renews
 * an access token from it, and the run start exchanges that for provider grants exactly as if the owner had
 * started the run. Revoked or expired: the event is rejected with "sign in", and updating the trigger renews it.
 */
@ApplicationScoped
public class TriggerOwnerGrants implements OwnerGrants {

    static final String PRINCIPAL = "trigger-owner";

    private final boolean enabled;
    private final Audience engine;
    private final DelegatedTokens delegated;
    private final TokenClient idp;
    private final Optional<ClientCredentials> serviceClient;

    public TriggerOwnerGrants(AuthConfig auth, EngineVault vault, SealedGrants grants, Clock clock) {
        this.enabled = auth.enabled();
        // continuum-api: the realm's scope that puts the engine in a token's audience (an optional scope of the engine client)
        this.engine = new Audience(auth.clientId(), "continuum-api");
        this.idp = new TokenClient(auth.issuer());
        this.serviceClient = auth.enabled() && auth.triggerClientId().isPresent()
                ? Optional.of(ClientCredentials.confidential(auth.triggerClientId().get(), auth.triggerClientSecret().orElse("")))
                : Optional.empty();
        this.delegated = new DelegatedTokens(idp,
                ClientCredentials.confidential(auth.clientId(), auth.clientSecret().orElse("")), vault.vault(), grants, clock,
                auth.renewBefore());
    }

    @Override
    public Uni<Void> keep(UUID triggerId, Optional<String> ownerToken) {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        String token = ownerToken.orElseThrow(() -> new SignInRequired("Sign in: a trigger acts for you with your token."));
        return blocking(() -> {
            try {
                delegated.obtain(triggerId, PRINCIPAL, token, List.of(engine));
            } catch (TokenRefusedException e) {
                throw new AccessDenied("The identity provider refused to let this trigger act for you (" + e.error() + ").");
            }
            return null;
        });
    }

    @Override
    public Uni<RunService.Credentials> credentials(UUID triggerId) {
        if (!enabled) {
            return Uni.createFrom().item(RunService.Credentials.NONE);
        }
        return blocking(() -> new RunService.Credentials(Optional.of(delegated.tokenFor(triggerId, PRINCIPAL, engine)), Map.of()));
    }

    @Override
    public Viewer starter(String ownerId) {
        return enabled ? Viewer.of(ownerId) : Viewer.unrestricted(ownerId);
    }

    @Override
    public Uni<Void> forget(UUID triggerId) {
        return enabled ? blocking(() -> {
            delegated.forget(triggerId);
            return null;
        }) : Uni.createFrom().voidItem();
    }

    @Override
    public Optional<String> serviceAccount() {
        return serviceClient.map(client -> "service-account-" + client.clientId());
    }

    @Override
    public Uni<RunService.Credentials> serviceAccountCredentials() {
        ClientCredentials client = serviceClient.orElseThrow(() -> new IllegalStateException("no trigger service account"));
        return blocking(() -> {
            try {
                // continuum-api puts the engine in the token's audience, as a person's trigger grant has it
                return new RunService.Credentials(Optional.of(idp.clientCredentials(client, engine.scope()).accessToken()), Map.of());
            } catch (TokenRefusedException e) {
                throw new SignInRequired("The identity provider refused the trigger service account " + client.clientId()
                        + " (" + e.error() + "): check continuum.auth.trigger-client-secret.");
            }
        });
    }

    /** Identity provider and JDBC calls block: off the event loop, answered on a worker. */
    private static <T> Uni<T> blocking(java.util.function.Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
