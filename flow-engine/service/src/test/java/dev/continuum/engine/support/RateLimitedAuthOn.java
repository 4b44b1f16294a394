package dev.continuum.engine.support;

import java.util.HashMap;
import java.util.Map;

/**
 * AuthOn with a per-token rate limit small enough to reach in a test (100 requests at once, then one every 2 s).
 * Tests under it take a fresh token every {@link TokenPool#USES} requests, as a busy client would be refused otherwise.
 */
public class RateLimitedAuthOn extends AuthOn {

    public static final int BURST = 100;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("continuum.api.rate-limit.burst", Integer.toString(BURST));
        config.put("continuum.api.rate-limit.requests-per-second", "0.5");
        return config;
    }
}
