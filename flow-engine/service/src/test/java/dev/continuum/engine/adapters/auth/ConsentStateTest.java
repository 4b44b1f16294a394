package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.vault.TokenVault;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConsentStateTest {

    private static final String KEY = TokenVault.newBase64Key();
    private static final ConsentState.Asked ASKED =
            new ConsentState.Asked("scientist", "https://engine.example/grants/consent/callback", Instant.parse("2026-12-07T15:00:00Z"));

    @Test
    void shouldFinishAConsentBegunByAnotherEngineWithTheSameVaultKey() {
        String state = new ConsentState(TokenVault.fromBase64Key(KEY)).seal(ASKED);

        assertThat(new ConsentState(TokenVault.fromBase64Key(KEY)).open(state)).contains(ASKED);
    }

    @Test
    void shouldFinishAConsentBegunBeforeAVaultKeyRotation() {
        String state = new ConsentState(TokenVault.fromBase64Key(KEY)).seal(ASKED);
        TokenVault rotated = TokenVault.fromBase64Keys(TokenVault.newBase64Key(), List.of(KEY));

        assertThat(new ConsentState(rotated).open(state)).contains(ASKED);
    }

    @Test
    void shouldNotOpenAStateSealedWithAnotherKeyAlteredOrMadeUp() {
        String state = new ConsentState(TokenVault.fromBase64Key(KEY)).seal(ASKED);
        ConsentState engine = new ConsentState(TokenVault.fromBase64Key(KEY));
        int middle = state.length() / 2;
        String altered = state.substring(0, middle) + (state.charAt(middle) == 'A' ? 'B' : 'A') + state.substring(middle + 1);

        assertThat(new ConsentState(TokenVault.fromBase64Key(TokenVault.newBase64Key())).open(state)).isEmpty();
        assertThat(engine.open(altered)).isEmpty();
        assertThat(engine.open("made-up-state")).isEmpty();
        assertThat(engine.open("%%%")).isEmpty();
        assertThat(engine.open(null)).isEmpty();
    }
}
