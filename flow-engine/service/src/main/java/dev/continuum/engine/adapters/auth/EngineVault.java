package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.vault.TokenVault;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The vault that seals what triggers keep (owner grants, webhook secrets) with continuum.auth.vault-key;
 * without one, a per-process key: kept secrets cannot be opened after a restart (dev only, RunTokens warns).
 * continuum.auth.vault-previous-keys keeps values sealed before a key rotation opening.
 */
@ApplicationScoped
public class EngineVault {

    private final TokenVault vault;

    public EngineVault(AuthConfig auth) {
        this.vault = auth.vaultKey().map(key -> TokenVault.fromBase64Keys(key, auth.vaultPreviousKeys().orElse(java.util.List.of())))
                .orElseGet(TokenVault::ephemeral);
    }

    public TokenVault vault() {
        return vault;
    }
}
