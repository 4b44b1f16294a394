package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.domain.EngineError;

import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The {@code state} of an offline-access consent: who asked, where the identity provider sends them back, and until
 * when, sealed with the vault key rather than remembered. Any engine holding the key (several behind one load
 * balancer, or this one after a restart) can finish a consent another began; a forged or altered state does not open.
 */
final class ConsentState {

    private static final String CONTEXT = "continuum consent state";
    private static final String SEPARATOR = "\n";

    /** A consent someone began. */
    record Asked(String person, String redirectUri, Instant until) {}

    private final TokenVault vault;

    ConsentState(TokenVault vault) {
        this.vault = vault;
    }

    /** The state to send to the identity provider (URL-safe). */
    String seal(Asked asked) {
        if (asked.person().contains(SEPARATOR) || asked.redirectUri().contains(SEPARATOR)) {
            throw EngineError.invalidField("/redirect_uri", "must not contain a line break");
        }
        String text = String.join(SEPARATOR, asked.person(), asked.redirectUri(), Long.toString(asked.until().toEpochMilli()));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(vault.seal(text, CONTEXT));
    }

    /** The consent a state names; empty when no engine with this vault's keys sealed it, or it is mangled. */
    Optional<Asked> open(String state) {
        if (state == null) {
            return Optional.empty();
        }
        try {
            String[] parts = vault.open(Base64.getUrlDecoder().decode(state), CONTEXT).split(SEPARATOR, -1);
            return parts.length == 3
                    ? Optional.of(new Asked(parts[0], parts[1], Instant.ofEpochMilli(Long.parseLong(parts[2]))))
                    : Optional.empty();
        } catch (TokenVault.VaultException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
