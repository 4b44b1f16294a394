package dev.continuum.auth.oidc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The imported realm against a real Keycloak: demo users sign in, the engine exchanges and renews tokens. */
class KeycloakRealmTest {

    @Test
    void shouldSignInTheDemoScientistWithATokenTheEngineAccepts() {
        TokenResponse tokens = DemoRealm.signIn("scientist");

        JwtClaims claims = JwtClaims.readUnverified(tokens.accessToken());
        assertThat(claims.username()).contains("scientist");
        assertThat(claims.issuer()).isEqualTo(DemoRealm.keycloak().issuer());
        assertThat(claims.audience()).contains("continuum-engine");
        assertThat(tokens.toString()).doesNotContain(tokens.accessToken());
    }

    @Test
    void shouldRefuseAWrongPassword() {
        assertThatThrownBy(() -> DemoRealm.tokens().password(DemoRealm.CLI, "scientist", "guess", "openid"))
                .isInstanceOfSatisfying(TokenRefusedException.class, e -> assertThat(e.error()).isEqualTo("invalid_grant"));
    }

    @Test
    void shouldNotLetTheWebClientUseThePasswordGrant() {
        assertThatThrownBy(() -> DemoRealm.tokens().password(ClientCredentials.publicClient("continuum-web"),
                "scientist", "scientist-local-only", "openid"))
                .isInstanceOf(TokenRefusedException.class);
    }

    @Test
    void shouldExchangeAUserTokenForOneWhoseAudienceIsOnlyTheProvider() {
        TokenResponse user = DemoRealm.signIn("scientist");

        TokenResponse delegated = DemoRealm.tokens().exchange(DemoRealm.ENGINE, user.accessToken(),
                "continuum-provider-builtin", "actions:builtin", false);

        JwtClaims claims = JwtClaims.readUnverified(delegated.accessToken());
        assertThat(claims.audience()).containsExactly("continuum-provider-builtin");
        assertThat(claims.username()).contains("scientist");
        assertThat(claims.scopes()).contains("actions:builtin");
    }

    @Test
    void shouldRenewAnExchangedTokenWithItsRefreshToken() {
        TokenResponse user = DemoRealm.signIn("scientist");
        TokenResponse delegated = DemoRealm.tokens().exchange(DemoRealm.ENGINE, user.accessToken(),
                "continuum-provider-transfer", "actions:transfer", true);
        assertThat(delegated.refreshToken()).isPresent();

        TokenResponse renewed = DemoRealm.tokens().refresh(DemoRealm.ENGINE, delegated.refreshToken().orElseThrow(), null);

        JwtClaims claims = JwtClaims.readUnverified(renewed.accessToken());
        assertThat(claims.audience()).containsExactly("continuum-provider-transfer");
        assertThat(claims.username()).contains("scientist");
    }

    @Test
    void shouldRefuseRenewalOnceTheGrantIsRevoked() {
        TokenResponse user = DemoRealm.signIn("scientist2");
        TokenResponse delegated = DemoRealm.tokens().exchange(DemoRealm.ENGINE, user.accessToken(),
                "continuum-provider-builtin", "actions:builtin", true);
        String refresh = delegated.refreshToken().orElseThrow();

        DemoRealm.tokens().revoke(DemoRealm.ENGINE, refresh);

        assertThatThrownBy(() -> DemoRealm.tokens().refresh(DemoRealm.ENGINE, refresh, null))
                .isInstanceOfSatisfying(TokenRefusedException.class, e -> assertThat(e.needsSignIn()).isTrue());
    }

    @Test
    void shouldGiveTheInstrumentItsOwnServiceAccountToken() {
        TokenResponse tokens = DemoRealm.tokens().clientCredentials(DemoRealm.INSTRUMENT, null);

        JwtClaims claims = JwtClaims.readUnverified(tokens.accessToken());
        assertThat(claims.username()).contains("service-account-continuum-instrument");
        assertThat(claims.audience()).contains("continuum-engine");
    }
}
