package dev.continuum.auth.vault;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

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

    @Test
    void shouldKeepOpeningWhatThePreviousKeySealedAfterARotationAndSealWithTheNewKey() {
        String oldKey = TokenVault.newBase64Key();
        String newKey = TokenVault.newBase64Key();
        byte[] beforeRotation = TokenVault.fromBase64Key(oldKey).seal("grant-1", "run:1");

        TokenVault rotated = TokenVault.fromBase64Keys(newKey, List.of(oldKey));
        byte[] afterRotation = rotated.seal("grant-2", "run:2");

        assertThat(rotated.open(beforeRotation, "run:1")).isEqualTo("grant-1");
        assertThat(rotated.shouldSealAgain(beforeRotation)).as("sealed with the previous key").isTrue();
        assertThat(rotated.shouldSealAgain(afterRotation)).isFalse();
        assertThat(TokenVault.fromBase64Key(newKey).open(afterRotation, "run:2")).as("the new key alone opens new values")
                .isEqualTo("grant-2");
        assertThatThrownBy(() -> TokenVault.fromBase64Key(oldKey).open(afterRotation, "run:2"))
                .isInstanceOf(TokenVault.VaultException.class);
    }

    @Test
    void shouldSayAPreviousKeyIsMissingWhenItIsRetiredTooEarly() {
        String oldKey = TokenVault.newBase64Key();
        // sealed during an earlier rotation, with oldKey then current
        byte[] sealed = TokenVault.fromBase64Keys(oldKey, List.of(TokenVault.newBase64Key())).seal("grant", "run:1");

        assertThatThrownBy(() -> TokenVault.fromBase64Key(TokenVault.newBase64Key()).open(sealed, "run:1"))
                .isInstanceOf(TokenVault.VaultException.class).hasMessageContaining("previous key no longer configured");
    }

    @Test
    void shouldOpenValuesSealedBeforeKeyIdsWithTheCurrentOrAPreviousKey() throws Exception {
        String oldKey = TokenVault.newBase64Key();
        byte[] legacy = sealWithoutKeyId(oldKey, "grant", "run:1");

        assertThat(TokenVault.fromBase64Key(oldKey).open(legacy, "run:1")).isEqualTo("grant");
        assertThat(TokenVault.fromBase64Keys(TokenVault.newBase64Key(), List.of(oldKey)).open(legacy, "run:1")).isEqualTo("grant");
        assertThat(TokenVault.fromBase64Keys(TokenVault.newBase64Key(), List.of(oldKey)).shouldSealAgain(legacy)).isTrue();
        assertThat(TokenVault.fromBase64Key(oldKey).shouldSealAgain(legacy)).as("no rotation under way").isFalse();
    }

    @Test
    void shouldWriteTheLayoutOfEnginesBeforeKeyIdsWhenNoRotationIsUnderWaySoARollingUpgradeLosesNothing() {
        byte[] sealed = vault.seal("grant", "run:1");

        assertThat(sealed[0]).isEqualTo((byte) 1);
        assertThat(sealed).hasSize(1 + 12 + "grant".length() + 16);
    }

    @Test
    void shouldNameTheSettingWhenAPreviousKeyIsNotBase64() {
        assertThatThrownBy(() -> TokenVault.fromBase64Keys(TokenVault.newBase64Key(), List.of("not base64!")))
                .hasMessageContaining("continuum.auth.vault-previous-keys");
    }

    /** Version 1 of the layout, as vaults before key ids wrote it: version byte, nonce, ciphertext+tag. */
    private static byte[] sealWithoutKeyId(String base64Key, String secret, String context) throws Exception {
        byte[] nonce = new byte[12];
        new java.security.SecureRandom().nextBytes(nonce);
        javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(java.util.Base64.getDecoder().decode(base64Key), "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, nonce));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
        return java.nio.ByteBuffer.allocate(1 + 12 + sealed.length).put((byte) 1).put(nonce).put(sealed).array();
    }
}
