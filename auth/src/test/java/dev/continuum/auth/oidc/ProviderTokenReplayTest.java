package dev.continuum.auth.oidc;

import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.auth.Jwks;
import dev.continuum.provider.server.auth.JwtVerifier;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Providers' token check (provider-sdk) with tokens the engine really obtains from Keycloak by exchange. */
class ProviderTokenReplayTest {

    static JwtVerifier provider(String client, String scope) {
        String issuer = DemoRealm.keycloak().issuer();
        JwtVerifier verifier = new JwtVerifier(issuer, client, Optional.of(scope), () -> Jwks.fetch(Jwks.keycloakCerts(issuer)),
                Clock.systemUTC(), Duration.ofSeconds(30));
        verifier.refreshKeys();
        return verifier;
    }

    static String delegated(String audience, String scope) {
        return DemoRealm.tokens().exchange(DemoRealm.ENGINE, DemoRealm.signIn("scientist").accessToken(), audience, scope, false)
                .accessToken();
    }

    @Test
    void shouldAcceptTheTokenExchangedForThisProvider() {
        var caller = provider("continuum-provider-builtin", "actions:builtin")
                .verify("Bearer " + delegated("continuum-provider-builtin", "actions:builtin"));

        assertThat(caller.id()).isEqualTo("scientist");
    }

    @Test
    void shouldRefuseATokenReplayedFromAnotherProvider() {
        String forBuiltin = delegated("continuum-provider-builtin", "actions:builtin");

        assertThatThrownBy(() -> provider("continuum-provider-transfer", "actions:transfer").verify("Bearer " + forBuiltin))
                .isInstanceOfSatisfying(CallerRejectedException.class, e -> assertThat(e.httpStatus()).isEqualTo(401));
    }

    @Test
    void shouldRefuseTheUsersOwnEngineToken() {
        String userToken = DemoRealm.signIn("scientist").accessToken();

        assertThatThrownBy(() -> provider("continuum-provider-builtin", "actions:builtin").verify("Bearer " + userToken))
                .isInstanceOf(CallerRejectedException.class);
    }

    @Test
    void shouldRefuseATokenFromAnotherRealmOfTheSameKeycloak() {
        String foreign = new TokenClient(DemoRealm.keycloak().issuer("elsewhere"))
                .password(DemoRealm.CLI, "scientist", "scientist-local-only", "openid").accessToken();

        assertThatThrownBy(() -> provider("continuum-provider-builtin", "actions:builtin").verify("Bearer " + foreign))
                .isInstanceOfSatisfying(CallerRejectedException.class, e -> assertThat(e.httpStatus()).isEqualTo(401));
    }
}
