package dev.continuum.provider.transfer.provider;

import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.engine.TransferOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Mounts the transfer family under one base path, mirroring the Globus action URLs
 * ({@code .../transfer/transfer}, {@code .../transfer/ls}, ...): {@code BASE/transfer},
 * {@code BASE/ls}, {@code BASE/mkdir}, {@code BASE/delete}. Transfers are kept in a
 * {@link FileActionStore} under {@code stateDir/actions} with journals under
 * {@code stateDir/journals}, so they survive a crash; the synchronous operations live in memory.
 * Each {@code mountAll} returns the mounted providers, for their process to close as it stops.
 */
public final class TransferProviders {

    private TransferProviders() {}

    public static List<LocalProvider> mountAll(Router router, String basePath, Vertx vertx, EndpointRegistry endpoints,
                                               TransferOptions options, Path stateDir, CallerResolver callers) {
        return mountAll(router, basePath, vertx, endpoints, options, stateDir, callers, MeasuredRates.NONE);
    }

    /** As above; each successful transfer's measured rate goes to {@code rates} (the planner's link model). */
    public static List<LocalProvider> mountAll(Router router, String basePath, Vertx vertx, EndpointRegistry endpoints,
                                               TransferOptions options, Path stateDir, CallerResolver callers,
                                               MeasuredRates rates) {
        return mountAll(router, basePath, vertx, endpoints, options, stateDir, new FileActionStore(stateDir.resolve("actions")),
                callers, rates);
    }

    /**
     * As above with the transfers kept in {@code actions}, e.g. a {@code PostgresActionStore} that several instances
     * share (ADR 0027); journals stay under {@code stateDir/journals}, so an instance that adopts another's transfer
     * without that directory starts it again from its first byte (checksums make that safe, not cheap).
     */
    public static List<LocalProvider> mountAll(Router router, String basePath, Vertx vertx, EndpointRegistry endpoints,
                                               TransferOptions options, Path stateDir, ActionStore actions,
                                               CallerResolver callers, MeasuredRates rates) {
        String base = basePath == null || basePath.equals("/") ? "" : basePath.replaceAll("/+$", "");
        ProviderServerOptions durable = ProviderServerOptions.of(vertx).withCallerResolver(callers).withStore(actions);
        List<LocalProvider> mounted = new ArrayList<>();
        mounted.add(ActionProviderServer.mount(router, base + "/transfer",
                new TransferProvider(endpoints, options, stateDir.resolve("journals"), rates), durable));
        for (FileOperationProvider.Operation op : FileOperationProvider.Operation.values()) {
            mounted.add(ActionProviderServer.mount(router, base + "/" + op.name().toLowerCase(java.util.Locale.ROOT),
                    new FileOperationProvider(op, endpoints), ProviderServerOptions.of(vertx).withCallerResolver(callers)));
        }
        return List.copyOf(mounted);
    }
}
