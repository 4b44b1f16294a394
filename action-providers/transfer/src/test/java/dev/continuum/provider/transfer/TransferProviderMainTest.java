package dev.continuum.provider.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.testing.Http;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferProviderMainTest {

    private static final List<String> PROVIDERS = List.of("transfer", "ls", "mkdir", "delete");

    @TempDir Path tmp;

    @Test
    void shouldStopEveryProviderWhenTheLauncherClosesWhatTheMainMounted() throws Exception {
        Path endpoints = tmp.resolve("endpoints.json");
        Files.createDirectories(tmp.resolve("data"));
        Files.writeString(endpoints, """
                {"endpoints": [{"id": "dc", "type": "directory", "root": "data", "owner": "alice"}]}""");
        TransferProviderMain.Settings settings = TransferProviderMain.parse(new String[] {
                "--endpoints", endpoints.toString(), "--state", tmp.resolve("state").toString()});
        TransferOptions options = TransferOptions.defaults();
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            AutoCloseable atShutdown = TransferProviderMain.mount(settings, EndpointConfig.load(endpoints, options.chunkBytes()),
                    options).mount(vertx, router);
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Http http = new Http("http://127.0.0.1:" + server.actualPort() + "/providers/transfer/");

            // a running provider answers 404 for an action it does not know; a stopped one refuses every change with 503
            for (String name : PROVIDERS) {
                assertThat(http.post(name + "/" + UUID.randomUUID() + "/cancel", "{}", null).status()).as(name).isEqualTo(404);
            }
            atShutdown.close();

            for (String name : PROVIDERS) {
                assertThat(http.post(name + "/" + UUID.randomUUID() + "/cancel", "{}", null).status()).as(name + ", stopped")
                        .isEqualTo(503);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
