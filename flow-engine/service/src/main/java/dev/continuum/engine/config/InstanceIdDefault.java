package dev.continuum.engine.config;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The default of {@code continuum.instance-id}: a name unique to this process ({@code engine-} and 12 random hex
 * digits), drawn once per JVM. Every use of the id reads the same value: leases, the built-in providers, and the MQTT
 * client ids expanded from it in application.properties ({@code continuum-${continuum.instance-id}-triggers}), so two
 * engines started without an id never take each other's broker session. Any configured value wins (this source's
 * ordinal is below application.properties, system properties and the environment); an operator who needs the same
 * persistent MQTT session after a restart sets a stable id (docs/operations.md).
 */
public final class InstanceIdDefault implements ConfigSource {

    static final String KEY = "continuum.instance-id";

    private static final String PER_PROCESS = "engine-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @Override
    public Map<String, String> getProperties() {
        return Map.of(KEY, PER_PROCESS);
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(KEY);
    }

    @Override
    public String getValue(String propertyName) {
        return KEY.equals(propertyName) ? PER_PROCESS : null;
    }

    @Override
    public String getName() {
        return "continuum-instance-id-default";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }
}
