package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.adapters.auth.DelegatedTokens;
import dev.continuum.engine.app.SealedGrants;
import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.domain.ProviderAudiences.Audience;
import dev.continuum.engine.support.TestClock;
import dev.continuum.engine.support.Tokens;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Per-provider delegated tokens against the real Keycloak, with the engine's clock moved instead of slept. */
class DelegatedTokensTest {

    static final Audience BUILTIN = new Audience("continuum-provider-builtin", "actions:builtin");
    static final Audience TRANSFER = new Audience("continuum-provider-transfer", "actions:transfer");

    /** The run_grants table's stand-in: this unit's neighbour (the JDBC store is tested through the engine). */
    static final class MapGrants implements SealedGrants {
        final Map<String, byte[]> rows = new ConcurrentHashMap<>();

        @Override
        public void save(UUID runId, String principal, String audience, byte[] sealed) {
            rows.put(runId + "/" + principal + "/" + audience, sealed);
        }

        @Override
        public Optional<byte[]> find(UUID runId, String principal, String audience) {
            return Optional.ofNullable(rows.get(runId + "/" + principal + "/" + audience));
        }

        @Override
        public void forget(UUID runId) {
            rows.keySet().removeIf(k -> k.startsWith(runId + "/"));
        }
    }

    final TestClock clock = new TestClock();
    final MapGrants grants = new MapGrants();
    final TokenVault vault = TokenVault.ephemeral();
    final DelegatedTokens tokens = new DelegatedTokens(Tokens.client(), Tokens.ENGINE, vault, grants, clock,
            Duration.ofSeconds(60));

    @Test
    void shouldGiveEachProviderATokenForItAlone() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(BUILTIN, TRANSFER));

        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, "user", BUILTIN)).audience()).containsExactly("continuum-provider-builtin");
        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, "user", TRANSFER)).audience()).containsExactly("continuum-provider-transfer");
    }

    @Test
    void shouldKeepRenewingTheTokenThroughASimulatedWeek() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(TRANSFER));
        Set<String> seen = new HashSet<>();

        for (int hour = 0; hour < 7 * 24; hour += 2) {
            clock.advance(Duration.ofHours(2));
            String token = tokens.tokenFor(run, "user", TRANSFER);
            assertThat(seen.add(token)).as("a renewed token after %d h", hour + 2).isTrue();
            assertThat(JwtClaims.readUnverified(token).username()).contains("scientist");
        }
        assertThat(seen).hasSize(84);
    }

    @Test
    void shouldReuseTheTokenWhileItIsStillValid() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(BUILTIN));

        assertThat(tokens.tokenFor(run, "user", BUILTIN)).isEqualTo(tokens.tokenFor(run, "user", BUILTIN));
    }

    @Test
    void shouldAskForSignInOnceRevokedAndWorkAgainAfterSigningIn() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist2"), List.of(BUILTIN));
        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("scientist2");
        clock.advance(Duration.ofHours(1));

        assertThatThrownBy(() -> tokens.tokenFor(run, "user", BUILTIN)).isInstanceOf(SignInRequired.class)
                .hasMessageContaining("sign in again");

        tokens.obtain(run, "user", Tokens.of("scientist2"), List.of(BUILTIN));
        assertThat(JwtClaims.readUnverified(tokens.tokenFor(run, "user", BUILTIN)).username()).contains("scientist2");
    }

    @Test
    void shouldRenewFromTheStoredGrantInAnotherEngineInstanceThatNeverSawTheExchange() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(BUILTIN));
        DelegatedTokens otherInstance = new DelegatedTokens(Tokens.client(), Tokens.ENGINE, vault, grants, clock,
                Duration.ofSeconds(60));

        assertThat(otherInstance.cached(run, "user", BUILTIN)).isEmpty();
        assertThat(JwtClaims.readUnverified(otherInstance.tokenFor(run, "user", BUILTIN)).username()).contains("scientist");
    }

    @Test
    void shouldStoreOnlyTheSealedRefreshTokenAndForgetItWhenTheRunEnds() {
        UUID run = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(BUILTIN, TRANSFER));

        assertThat(grants.rows).hasSize(2);
        grants.rows.values().forEach(sealed -> assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("eyJ"));
        tokens.forget(run);
        assertThat(grants.rows).isEmpty();
        assertThatThrownBy(() -> tokens.tokenFor(run, "user", BUILTIN)).isInstanceOf(SignInRequired.class);
    }

    @Test
    void shouldNotOpenAGrantCopiedToAnotherRun() {
        UUID run = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        tokens.obtain(run, "user", Tokens.of("scientist"), List.of(BUILTIN));
        grants.save(other, "user", BUILTIN.clientId(), grants.find(run, "user", BUILTIN.clientId()).orElseThrow());

        assertThatThrownBy(() -> tokens.tokenFor(other, "user", BUILTIN)).isInstanceOf(SignInRequired.class)
                .hasMessageContaining("cannot be opened");
    }
}
