package dev.continuum.provider.builtin;

import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Mounts every built-in provider under one base path, each with its own store (in memory unless the options name one). */
public final class BuiltinProviders {

    /** Path segments under the base path, in the order they are mounted. */
    public static final List<String> NAMES = List.of("echo", "sleep", "expression", "notify");

    private BuiltinProviders() {}

    /**
     * Serves {@code basePath + "/echo"}, {@code "/sleep"}, {@code "/expression"} and {@code "/notify"};
     * answers the same providers for calls from this process, by name.
     */
    public static Map<String, LocalProvider> mountAll(Router router, String basePath, Vertx vertx, BuiltinOptions options) {
        String base = basePath == null || basePath.equals("/") ? "" : basePath.replaceAll("/+$", "");
        Map<String, LocalProvider> local = new LinkedHashMap<>();
        for (Map.Entry<String, ActionProvider> e : providers(vertx, options).entrySet()) {
            ProviderServerOptions serverOptions = ProviderServerOptions.of(vertx)
                    .withCallerResolver(options.callerResolver()).withReleasedRetention(options.releasedRetention());
            if (options.stores().containsKey(e.getKey())) {
                serverOptions = serverOptions.withStore(options.stores().get(e.getKey()));
            }
            local.put(e.getKey(), ActionProviderServer.mount(router, base + "/" + e.getKey(), e.getValue(), serverOptions));
        }
        return Map.copyOf(local);
    }

    static Map<String, ActionProvider> providers(Vertx vertx, BuiltinOptions options) {
        Map<String, ActionProvider> all = new LinkedHashMap<>();
        all.put("echo", new EchoProvider(options.effectsLog()));
        all.put("sleep", new SleepProvider());
        all.put("expression", new ExpressionProvider());
        all.put("notify", new NotifyProvider(vertx));
        return all;
    }
}
