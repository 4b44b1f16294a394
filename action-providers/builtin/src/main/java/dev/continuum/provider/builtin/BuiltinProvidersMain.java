package dev.continuum.provider.builtin;

import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Serves the built-in providers on their own, e.g. for crash tests where the engine dies but
 * the provider must live on:
 * {@code java -jar continuum-builtin-providers-<ver>-runner.jar --port 8091 --effects-log effects.tsv}.
 */
public final class BuiltinProvidersMain {

    private static final String USAGE = """
            usage: continuum-builtin-providers [--port 8091] [--host 127.0.0.1] [--base-path /providers] [--effects-log FILE]
              serves echo, sleep, expression and notify at http://HOST:PORT/BASE/<name>
            """;

    private BuiltinProvidersMain() {}

    record Settings(int port, String host, String basePath, Path effectsLog) {}

    public static void main(String[] args) {
        Settings settings = ProviderLauncher.settingsOrExit(args, USAGE, BuiltinProvidersMain::parse);
        int port = ProviderLauncher.serve("continuum-builtin-providers", settings.host(), settings.port(), mount(settings));
        System.out.println("continuum built-in providers listening on http://" + settings.host() + ":" + port
                + settings.basePath() + "/{" + String.join(",", BuiltinProviders.NAMES) + "}");
    }

    /**
     * Mounts every built-in under the base path. What it returns closes them, and the launcher closes that first as
     * the JVM stops: their actions' timers end, nothing of theirs is stored from then on, a new action is refused (503).
     */
    static ProviderLauncher.Mount mount(Settings settings) {
        BuiltinOptions options = settings.effectsLog() == null ? BuiltinOptions.defaults()
                : BuiltinOptions.defaults().withEffectsLog(settings.effectsLog());
        return (vertx, router) -> {
            Map<String, LocalProvider> mounted = BuiltinProviders.mountAll(router, settings.basePath(), vertx, options);
            return () -> mounted.values().forEach(LocalProvider::close);
        };
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        Arguments a = Arguments.parse(args, Set.of("--port", "--host", "--base-path", "--effects-log"), Set.of());
        if (a == null) {
            return null;
        }
        return new Settings(a.port("--port", 8091), a.text("--host", "127.0.0.1"), a.basePath("--base-path", "/providers"),
                a.path("--effects-log").orElse(null));
    }
}
