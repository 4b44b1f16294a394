package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.telemetry.testing.DashboardQueries;
import dev.continuum.telemetry.testing.ServedMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BuiltinProvidersMainTest {

    @Test
    void shouldUseLocalDefaults() {
        BuiltinProvidersMain.Settings s = BuiltinProvidersMain.parse(new String[0]);

        assertThat(s).isEqualTo(new BuiltinProvidersMain.Settings(8091, "127.0.0.1", "/providers", null));
    }

    @Test
    void shouldReadEveryOptionInBothSpellings() {
        BuiltinProvidersMain.Settings s = BuiltinProvidersMain.parse(new String[] {
                "--port", "9000", "--host=0.0.0.0", "--effects-log", "/tmp/e.tsv", "--base-path=/ap/"});

        assertThat(s).isEqualTo(new BuiltinProvidersMain.Settings(9000, "0.0.0.0", "/ap", Path.of("/tmp/e.tsv")));
    }

    @Test
    void shouldRefuseUnknownOptionsAndBadPorts() {
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--prot", "1"})).hasMessageContaining("--prot");
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--port", "http"})).hasMessageContaining("--port");
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--port"})).hasMessageContaining("missing value");
    }

    @Test
    void shouldStopEveryProviderWhenTheLauncherClosesWhatTheMainMounted() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            AutoCloseable atShutdown = BuiltinProvidersMain.mount(BuiltinProvidersMain.parse(new String[0])).mount(vertx, router);
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            String base = "http://127.0.0.1:" + server.actualPort() + "/providers/";

            for (String name : BuiltinProviders.NAMES) {
                assertThat(cancelUnknownAction(base + name)).as(name).isEqualTo(404);
            }
            atShutdown.close();

            for (String name : BuiltinProviders.NAMES) {
                assertThat(cancelUnknownAction(base + name)).as(name + ", stopped").isEqualTo(503);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldServeTheActionsEachProviderFinishedForTheDashboard() throws Exception {
        int port = ProviderLauncher.serve("continuum-builtin-providers", "127.0.0.1", 0,
                BuiltinProvidersMain.mount(BuiltinProvidersMain.parse(new String[] {"--port", "0"})));
        String sleep = "http://127.0.0.1:" + port + "/providers/sleep";
        String metrics = "http://127.0.0.1:" + port + "/q/metrics";
        double failedBefore = ServedMetrics.scrape(metrics).value(SLEEP_FAILED);

        String started = post(sleep + "/run", "{\"request_id\":\"" + UUID.randomUUID() + "\",\"body\":{\"seconds\":60}}");
        String actionId = started.replaceAll("(?s).*\"action_id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
        assertThat(post(sleep + "/" + actionId + "/cancel", "")).contains("\"FAILED\"");

        ServedMetrics served = ServedMetrics.scrape(metrics);
        assertThat(served.value(SLEEP_FAILED) - failedBefore).as("the cancelled sleep counted FAILED").isEqualTo(1);
        // deploy/grafana/continuum.json, row "Providers": the providers' own metrics (not the transfer provider's bytes)
        assertThat(DashboardQueries.metrics(Path.of("../.."), "Providers")).filteredOn(name -> name.startsWith("continuum_provider_"))
                .isNotEmpty().allMatch(served::serves);
    }

    private static final String SLEEP_FAILED = "continuum_provider_actions_total{provider=\"sleep\",status=\"FAILED\",}";

    private static String post(String url, String json) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    /** A running provider answers 404 for an action it does not know; a stopped one refuses every change with 503. */
    private static int cancelUnknownAction(String provider) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(provider + "/" + UUID.randomUUID() + "/cancel"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }
}
