package dev.continuum.provider.server;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import io.vertx.ext.web.Router;

/**
 * A provider's metrics for Prometheus at {@code GET /q/metrics}, the path the Quarkus services (engine, planner) serve
 * theirs at, so a scrape configuration and the pods' annotations (deploy/kubernetes) read the same for every service.
 * Unauthenticated like theirs: counts only, no action's data; a deployment keeps it inside the cluster network.
 * What is served is Micrometer's global registry, where the SDK counts finished actions and a provider its own meters
 * (the transfer provider its bytes copied).
 */
public final class ProviderMetrics {

    public static final String PATH = "/q/metrics";

    /** One per JVM, joined to the global registry once: meters registered there before or after are served. */
    private static final PrometheusMeterRegistry PROMETHEUS = joined(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    private ProviderMetrics() {}

    /** Adds {@code GET /q/metrics} to {@code router}. */
    public static void mount(Router router) {
        router.get(PATH).handler(rc -> rc.response().putHeader("Content-Type", TextFormat.CONTENT_TYPE_004)
                .end(PROMETHEUS.scrape()));
    }

    private static PrometheusMeterRegistry joined(PrometheusMeterRegistry registry) {
        Metrics.addRegistry(registry);
        return registry;
    }
}
