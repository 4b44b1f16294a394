package dev.continuum.cli.signin;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The bearer token for the CLI's next engine call, in this order: a service account's token when
 * {@code CONTINUUM_CLIENT_ID} and {@code CONTINUUM_CLIENT_SECRET} are set (instruments, scripts; fetched
 * by client credentials, kept in memory only); else the person's stored sign-in, renewed with its
 * refresh token when the access token has (nearly) run out; else none, and the engine will say 401.
 */
public final class BearerTokens {

    public static final String DEFAULT_ISSUER = "http://127.0.0.1:8180/realms/continuum";
    public static final ClientCredentials CLI = ClientCredentials.publicClient("continuum-cli");
    /** Renew this long before expiry, so a token does not run out between here and the engine. */
    private static final Duration MARGIN = Duration.ofSeconds(30);

    private final Map<String, String> env;
    private final SignInStore store;
    private final Clock clock;
    private ServiceAccountToken serviceAccount;

    public BearerTokens(Map<String, String> env, SignInStore store, Clock clock) {
        this.env = env;
        this.store = store;
        this.clock = clock;
    }

    /** {@code CONTINUUM_AUTH_ISSUER}, else the Keycloak that {@code continuum up} starts. */
    public static String issuer(Map<String, String> env) {
        String configured = env.get("CONTINUUM_AUTH_ISSUER");
        return configured != null && !configured.isBlank() ? configured.trim() : DEFAULT_ISSUER;
    }

    /** The service account named by {@code CONTINUUM_CLIENT_ID} / {@code CONTINUUM_CLIENT_SECRET}, if both are set. */
    public static Optional<ClientCredentials> serviceAccount(Map<String, String> env) {
        String id = env.get("CONTINUUM_CLIENT_ID");
        String secret = env.get("CONTINUUM_CLIENT_SECRET");
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(ClientCredentials.confidential(id.trim(), secret.trim()));
    }

    public SignInStore store() {
        return store;
    }

    public Optional<String> current() {
        Optional<ClientCredentials> service = serviceAccount(env);
        if (service.isPresent()) {
            return Optional.of(serviceToken(service.get()));
        }
        Optional<SignIn> stored = store.load();
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        SignIn signIn = stored.get();
        Instant soon = clock.instant().plus(MARGIN);
        if (!signIn.accessExpiresBefore(soon)) {
            return Optional.of(signIn.accessToken());
        }
        return Optional.of(renew(signIn).accessToken());
    }

    /** A service account's token from the issuer (what {@code login --client-credentials} checks). */
    public String serviceToken(ClientCredentials client) {
        String issuer = issuer(env);
        if (serviceAccount == null || !serviceAccount.client().equals(client)) {
            serviceAccount = new ServiceAccountToken(new TokenClient(issuer), client, clock);
        }
        try {
            return serviceAccount.current();
        } catch (TokenRefusedException e) {
            throw new SignInNeeded(issuer + " refused the service account '" + client.clientId() + "' (" + e.getMessage()
                    + "); check CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET");
        } catch (UncheckedIOException e) {
            throw unreachable(issuer, e);
        }
    }

    private SignIn renew(SignIn signIn) {
        if (signIn.refreshToken().isEmpty()
                || signIn.refreshExpiresAt().map(end -> !end.isAfter(clock.instant())).orElse(false)) {
            throw new SignInNeeded("your sign-in at " + signIn.issuer() + " has expired; run `continuum login`");
        }
        TokenResponse renewed;
        try {
            renewed = new TokenClient(signIn.issuer()).refresh(ClientCredentials.publicClient(signIn.clientId()),
                    signIn.refreshToken().get(), null);
        } catch (TokenRefusedException e) {
            throw new SignInNeeded("your sign-in at " + signIn.issuer() + " has expired or was revoked ("
                    + e.error() + "); run `continuum login`");
        } catch (UncheckedIOException e) {
            throw unreachable(signIn.issuer(), e);
        }
        SignIn next = from(signIn.issuer(), signIn.clientId(), renewed, clock.instant());
        store.save(next);
        return next;
    }

    /** What to keep from a token answer: the tokens and when each runs out, judged by our clock. */
    public static SignIn from(String issuer, String clientId, TokenResponse tokens, Instant now) {
        String user = JwtClaims.readUnverified(tokens.accessToken()).username().orElse("?");
        return new SignIn(issuer, clientId, user, tokens.accessToken(), now.plus(tokens.expiresIn()),
                tokens.refreshToken(), tokens.refreshExpiresIn().map(now::plus));
    }

    /** The identity provider did not answer: whatever the command was, the person is told the same. */
    public static SignInNeeded unreachable(String issuer, UncheckedIOException e) {
        return new SignInNeeded("cannot reach the identity provider at " + issuer + " (" + e.getMessage()
                + "); is it running (./continuum up), and is CONTINUUM_AUTH_ISSUER / --issuer right?");
    }
}
