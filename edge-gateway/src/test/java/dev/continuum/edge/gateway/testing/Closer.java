package dev.continuum.edge.gateway.testing;

import java.util.ArrayList;
import java.util.List;

/** What a test started (brokers, proxies, gateways, links), closed in the reverse order after it. */
public final class Closer implements AutoCloseable {

    private final List<AutoCloseable> resources = new ArrayList<>();

    public synchronized <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    @Override
    public synchronized void close() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        resources.clear();
    }
}
