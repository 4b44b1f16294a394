package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.vault.TokenVault;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The vault that seals what triggers keep (owner grants, webhook secrets) with continuum.auth.vault-key;
 * without one, a per-process key: kept secrets cannot be opened after a restart (dev only, RunTokens warns).
 */
@ApplicationScoped
public class EngineVault {

    private final TokenVault vault;

    public EngineVault(AuthConfig auth) {
        this.vault = auth.vaultKey().map(TokenVault::fromBase64Key).orElseGet(TokenVault::ephemeral);
    }

    public TokenVault vault() {
        return vault;
    }
}
