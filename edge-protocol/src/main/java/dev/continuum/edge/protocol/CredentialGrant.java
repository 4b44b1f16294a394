package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The registrar's answer to a {@link Registration}: a device credential, or why there is none. */
public record CredentialGrant(@JsonProperty("nonce") String nonce,
                              @JsonProperty("device_credential") String deviceCredential,
                              @JsonProperty("error") String error) {

    public boolean granted() {
        return deviceCredential != null && error == null;
    }
}
