package dev.continuum.auth.oidc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A service account's access token (client credentials), fetched on first use and fetched again
 * shortly before it runs out: what instruments, scripts and load drivers send on every call.
 * Thread-safe; blocking (see {@link TokenClient}).
 */
public final class ServiceAccountToken {

    /** Renew this long before expiry, so a token does not run out on its way to the engine. */
    private static final Duration MARGIN = Duration.ofSeconds(30);

    private final TokenClient idp;
    private final ClientCredentials client;
    private final String scope;
    private final Clock clock;
    private String token;
    private Instant renewAt = Instant.MIN;

    public ServiceAccountToken(TokenClient idp, ClientCredentials client, Clock clock) {
        this(idp, client, null, clock);
    }

    /** Tokens with {@code scope} (e.g. {@code actions:transfer}, which makes a provider their audience); null for the client's defaults. */
    public ServiceAccountToken(TokenClient idp, ClientCredentials client, String scope, Clock clock) {
        this.idp = idp;
        this.client = client;
        this.scope = scope;
        this.clock = clock;
    }

    /**
     * The service account named by {@code CONTINUUM_PLANNER_CLIENT_ID} and {@code CONTINUUM_PLANNER_CLIENT_SECRET}
     * at the issuer {@code CONTINUUM_AUTH_ISSUER} (default the local realm): how providers and backends sign their
     * calls to the placement planner (the realm's {@code continuum-planner-reporter}). Empty when no client id is set.
     */
    public static Optional<ServiceAccountToken> forPlanner(Map<String, String> env) {
        return fromEnvironment(env, "CONTINUUM_PLANNER_CLIENT_ID", "CONTINUUM_PLANNER_CLIENT_SECRET", null);
    }

    /**
     * The service account named by {@code CONTINUUM_TRANSFER_CLIENT_ID} and {@code CONTINUUM_TRANSFER_CLIENT_SECRET}
     * at {@code CONTINUUM_AUTH_ISSUER}, with scope {@code actions:transfer}: how the training provider calls the
     * transfer provider to carry checkpoints between sites (the realm's {@code continuum-checkpoint-carrier}).
     * Empty when no client id is set.
     */
    public static Optional<ServiceAccountToken> forTransfer(Map<String, String> env) {
        return fromEnvironment(env, "CONTINUUM_TRANSFER_CLIENT_ID", "CONTINUUM_TRANSFER_CLIENT_SECRET", "actions:transfer");
    }

    // Whole names, not a shared prefix: an operator (and KubernetesManifestsTest) finds each variable by its name.
    private static Optional<ServiceAccountToken> fromEnvironment(Map<String, String> env, String idVariable,
            String secretVariable, String scope) {
        String id = env.get(idVariable);
        if (id == null || id.isBlank()) {
            return Optional.empty();
        }
        String secret = env.get(secretVariable);
        ClientCredentials client = secret == null || secret.isBlank() ? ClientCredentials.publicClient(id)
                : ClientCredentials.confidential(id, secret);
        return Optional.of(new ServiceAccountToken(new TokenClient(env.getOrDefault("CONTINUUM_AUTH_ISSUER",
                "http://127.0.0.1:8180/realms/continuum")), client, scope, Clock.systemUTC()));
    }

    public ClientCredentials client() {
        return client;
    }

    /** A token valid for at least the margin; throws {@link TokenRefusedException} when the IdP refuses the client. */
    public synchronized String current() {
        if (token == null || !clock.instant().isBefore(renewAt)) {
            TokenResponse answer = idp.clientCredentials(client, scope);
            token = answer.accessToken();
            renewAt = clock.instant().plus(answer.expiresIn()).minus(MARGIN);
        }
        return token;
    }

    @Override
    public String toString() {
        return "ServiceAccountToken[" + client.clientId() + ", token=***]";
    }
}
