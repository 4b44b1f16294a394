package dev.continuum.auth.oidc;

import java.util.Objects;
import java.util.Optional;

/** A client's id and, for confidential clients, its secret. The secret never prints. */
public record ClientCredentials(String clientId, Optional<String> secret) {

    public ClientCredentials {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(secret, "secret");
    }

    public static ClientCredentials publicClient(String clientId) {
        return new ClientCredentials(clientId, Optional.empty());
    }

    public static ClientCredentials confidential(String clientId, String secret) {
        return new ClientCredentials(clientId, Optional.of(secret));
    }

    @Override
    public String toString() {
        return "ClientCredentials[" + clientId + (secret.isPresent() ? ", secret=***" : "") + "]";
    }
}
