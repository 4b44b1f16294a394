package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.adapters.auth.DelegatedTokens;
import dev.continuum.engine.adapters.auth.DelegatedTokens.Audience;
import dev.continuum.engine.support.TestClock;
import dev.continuum.engine.support.Tokens;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Per-provider delegated tokens against the real Keycloak, with the engine's clock moved instead of slept. */
class DelegatedTokensTest {

    static final Audience BUILTIN = new Audience("continuum-provider-builtin", "actions:builtin");
    static final Audience TRANSFER = new Audience("continuum-provider-transfer", "actions:transfer");

    final TestClock clock = new TestClock();
    final DelegatedTokens tokens = new DelegatedTokens(Tokens.client(), Tokens.ENGINE, TokenVault.ephemeral(), clock,
            Duration.ofSeconds(60));

    @Test
    void shouldGiveEachProviderATokenForItAlone() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, Tokens.of("scientist"), List.of(BUILTIN, TRANSFER));

        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, BUILTIN)).audience()).containsExactly("continuum-provider-builtin");
        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, TRANSFER)).audience()).containsExactly("continuum-provider-transfer");
    }

    @Test
    void shouldKeepRenewingTheTokenThroughASimulatedWeek() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, Tokens.of("scientist"), List.of(TRANSFER));
        Set<String> seen = new HashSet<>();

        for (int hour = 0; hour < 7 * 24; hour += 2) {
            clock.advance(Duration.ofHours(2));
            String token = tokens.tokenFor(run, TRANSFER);
            assertThat(seen.add(token)).as("a renewed token after %d h", hour + 2).isTrue();
            assertThat(JwtClaims.readUnverified(token).username()).contains("scientist");
        }
        assertThat(seen).hasSize(84);
    }

    @Test
    void shouldReuseTheTokenWhileItIsStillValid() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, Tokens.of("scientist"), List.of(BUILTIN));

        assertThat(tokens.tokenFor(run, BUILTIN)).isEqualTo(tokens.tokenFor(run, BUILTIN));
    }

    @Test
    void shouldAskForSignInOnceRevokedAndWorkAgainAfterSigningIn() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, Tokens.of("scientist2"), List.of(BUILTIN));
        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("scientist2");
        clock.advance(Duration.ofHours(1));

        assertThatThrownBy(() -> tokens.tokenFor(run, BUILTIN)).isInstanceOf(DelegatedTokens.SignInRequired.class)
                .hasMessageContaining("sign in again");

        tokens.obtain(run, Tokens.of("scientist2"), List.of(BUILTIN));
        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, BUILTIN)).username()).contains("scientist2");
    }
}
