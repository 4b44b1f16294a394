package dev.continuum.auth.oidc;

import java.time.Duration;
import java.util.Optional;

/**
 * RFC 8628 device authorization: what the person must open ({@link #verificationUri()}, code
 * {@link #userCode()}, or {@link #verificationUriComplete()} with the code filled in) while the
 * device polls with {@link #deviceCode()}. The device code is a secret and never prints.
 */
public record DeviceAuthorization(String deviceCode, String userCode, String verificationUri,
                                  Optional<String> verificationUriComplete, Duration expiresIn, Duration interval) {

    @Override
    public String toString() {
        return "DeviceAuthorization[deviceCode=***, userCode=" + userCode + ", verificationUri=" + verificationUri
                + ", expiresIn=" + expiresIn + ", interval=" + interval + "]";
    }
}
