package dev.continuum.auth.vault;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenVaultTest {

    private final TokenVault vault = TokenVault.fromBase64Key(TokenVault.newBase64Key());

    @Test
    void shouldOpenWhatItSealedForTheSameContext() {
        byte[] sealed = vault.seal("offline-token-value", "run:1/aud:continuum-provider-builtin");

        assertThat(vault.open(sealed, "run:1/aud:continuum-provider-builtin")).isEqualTo("offline-token-value");
    }

    @Test
    void shouldNotStoreTheSecretInClear() {
        byte[] sealed = vault.seal("offline-token-value", "run:1");

        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("offline-token-value");
    }

    @Test
    void shouldRefuseToOpenAValueCopiedToAnotherRun() {
        byte[] sealed = vault.seal("secret", "run:1");

        assertThatThrownBy(() -> vault.open(sealed, "run:2")).isInstanceOf(TokenVault.VaultException.class);
    }

    @Test
    void shouldRefuseToOpenWithAnotherKey() {
        byte[] sealed = vault.seal("secret", "run:1");
        TokenVault other = TokenVault.fromBase64Key(TokenVault.newBase64Key());

        assertThatThrownBy(() -> other.open(sealed, "run:1")).isInstanceOf(TokenVault.VaultException.class);
    }

    @Test
    void shouldDetectATamperedCiphertext() {
        byte[] sealed = vault.seal("secret", "run:1");
        sealed[sealed.length - 1] ^= 1;

        assertThatThrownBy(() -> vault.open(sealed, "run:1")).isInstanceOf(TokenVault.VaultException.class);
    }

    @Test
    void shouldSealTheSameSecretDifferentlyEachTime() {
        assertThat(vault.seal("secret", "run:1")).isNotEqualTo(vault.seal("secret", "run:1"));
    }

    @Test
    void shouldExplainHowToMakeAKeyWhenNoneOrAShortOneIsConfigured() {
        assertThatThrownBy(() -> TokenVault.fromBase64Key("")).hasMessageContaining("openssl rand -base64 32");
        assertThatThrownBy(() -> TokenVault.fromBase64Key("c2hvcnQ=")).hasMessageContaining("32 bytes");
    }

    @Test
    void shouldNeverPrintItsKey() {
        assertThat(vault.toString()).isEqualTo("TokenVault[AES-256-GCM]");
    }
}
