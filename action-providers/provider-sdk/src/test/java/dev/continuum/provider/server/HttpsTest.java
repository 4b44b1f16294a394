package dev.continuum.provider.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.edge.broker.testing.TestCa;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider's server with the certificate and key of a cert-manager Secret (issue 33): it answers HTTPS to a client
 * that trusts the CA, refuses a plain HTTP request, and a provider's own Vert.x client trusts the CA once
 * {@code CONTINUUM_TLS_CA_FILE} names it.
 */
class HttpsTest {

    @TempDir
    static Path dir;
    private static TestCa.Secret secret;

    private final Vertx vertx = Vertx.vertx();
    private HttpServer server;

    @BeforeAll
    static void makeCertificates() {
        secret = TestCa.create("continuum-test-ca").issue(dir.resolve("provider-tls"), "localhost");
    }

    @BeforeEach
    void startHttpsServer() throws Exception {
        Https https = Https.fromEnvironment(Map.of(Https.CERT_ENV, secret.tlsCrt().toString(),
                Https.KEY_ENV, secret.tlsKey().toString())).orElseThrow();
        server = vertx.createHttpServer(https.apply(new HttpServerOptions()))
                .requestHandler(rq -> rq.response().end("{\"status\":\"UP\"}"))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldRefuseAPlainHttpRequestWhenTheServerHasACertificate() {
        HttpClient plain = HttpClient.newBuilder().build();

        assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + "/health"))
                .build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
    }

    @Test
    void shouldAnswerAClientOfTheProcessOverHttpsOnceTheCaIsTrusted() throws Exception {
        Https.trustCaFromEnvironment(Map.of(Https.CA_ENV, secret.caCrt().toString()));
        WebClient client = WebClient.create(vertx, new io.vertx.ext.web.client.WebClientOptions().setSsl(true)
                .setVerifyHost(true));

        var response = client.getAbs("https://localhost:" + server.actualPort() + "/health").send()
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        String viaJdk = HttpClient.newBuilder().build().send(HttpRequest.newBuilder(
                URI.create("https://localhost:" + server.actualPort() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString()).body();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(viaJdk).contains("UP");
    }

    @Test
    void shouldNameTheSettingWhenAFileIsMissingOrHalfTheServerSettingsAreGiven() {
        assertThatThrownBy(() -> Https.fromEnvironment(Map.of(Https.CERT_ENV, secret.tlsCrt().toString(),
                Https.KEY_ENV, dir.resolve("nope.key").toString())))
                .hasMessageContaining("CONTINUUM_TLS_KEY_FILE").hasMessageContaining("nope.key").hasMessageContaining("not found");
        assertThatThrownBy(() -> Https.fromEnvironment(Map.of(Https.CERT_ENV, secret.tlsCrt().toString())))
                .hasMessageContaining("CONTINUUM_TLS_KEY_FILE");
        assertThatThrownBy(() -> Https.trustCaFromEnvironment(Map.of(Https.CA_ENV, dir.resolve("nope.crt").toString())))
                .hasMessageContaining("CONTINUUM_TLS_CA_FILE");
        assertThat(Https.fromEnvironment(Map.of())).isEmpty();
    }
}
