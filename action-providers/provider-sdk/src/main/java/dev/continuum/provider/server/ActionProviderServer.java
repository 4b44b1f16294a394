package dev.continuum.provider.server;

import dev.continuum.provider.internal.ActionEngine;
import dev.continuum.provider.internal.ProviderRoutes;
import io.vertx.ext.web.Router;

/** Serves an {@link ActionProvider} over the Action Provider API on a Vert.x {@link Router}. */
public final class ActionProviderServer {

    private ActionProviderServer() {}

    /**
     * Adds the provider's routes under {@code basePath} (e.g. {@code /providers/echo}; empty or
     * {@code /} for the root): {@code GET /}, {@code POST /run}, {@code GET /{id}/status},
     * {@code POST /{id}/cancel}, {@code POST /{id}/release}, {@code GET /{id}/log}, and the legacy
     * {@code /actions} forms. Resumes unfinished actions found in the store. The answer calls the
     * same provider from this process without HTTP;
     * closing it stops the provider (its background work, and any further change of its actions' state).
     */
    public static LocalProvider mount(Router router, String basePath, ActionProvider provider, ProviderServerOptions options) {
        ActionEngine engine = new ActionEngine(metricsName(basePath, provider), provider, options);
        new ProviderRoutes(engine, options).mount(router, basePath);
        engine.startBackgroundWork();
        return new LocalProvider(engine, options, basePath);
    }

    /** "transfer" for {@code /providers/transfer}: the name its URL gives it; its title when mounted at the root. */
    private static String metricsName(String basePath, ActionProvider provider) {
        String trimmed = basePath == null ? "" : basePath.replaceAll("/+$", "");
        String last = trimmed.substring(trimmed.lastIndexOf('/') + 1);
        return last.isEmpty() ? provider.describe().title() : last;
    }
}
