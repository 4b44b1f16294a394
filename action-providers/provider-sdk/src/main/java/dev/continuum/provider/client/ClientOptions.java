package dev.continuum.provider.client;

import java.time.Duration;
import java.util.Objects;

/**
 * HTTP settings of an {@link ActionProviderClient}.
 *
 * @param connectTimeout how long to wait for a TCP (and TLS) connection
 * @param readTimeout    how long a response may stay silent before the call fails as retryable
 * @param maxPoolSize    connections kept per provider host
 * @param keepAlive      reuse connections between calls
 * @param keepAliveTimeout how long an idle pooled connection is kept
 */
public record ClientOptions(Duration connectTimeout, Duration readTimeout, int maxPoolSize, boolean keepAlive,
                            Duration keepAliveTimeout) {

    public ClientOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(keepAliveTimeout, "keepAliveTimeout");
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("maxPoolSize must be at least 1");
        }
    }

    public static ClientOptions defaults() {
        return new ClientOptions(Duration.ofSeconds(5), Duration.ofSeconds(30), 64, true, Duration.ofSeconds(60));
    }

    public ClientOptions withConnectTimeout(Duration value) {
        return new ClientOptions(value, readTimeout, maxPoolSize, keepAlive, keepAliveTimeout);
    }

    public ClientOptions withReadTimeout(Duration value) {
        return new ClientOptions(connectTimeout, value, maxPoolSize, keepAlive, keepAliveTimeout);
    }

    public ClientOptions withMaxPoolSize(int value) {
        return new ClientOptions(connectTimeout, readTimeout, value, keepAlive, keepAliveTimeout);
    }
}
