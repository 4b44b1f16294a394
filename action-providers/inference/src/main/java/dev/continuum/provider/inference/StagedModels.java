package dev.continuum.provider.inference;

import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Model files being deployed, served to the gateways that fetch them. A deployment copies the file once
 * (hashing it on the way, so the digest the gateways check is the digest of exactly the bytes they get,
 * even if the source changes meanwhile) and serves the copy at a <b>capability URL</b>
 * ({@code <public url><path>/<random token>}) until the deployment ends: gateways have no token of the
 * identity provider, and the random 256-bit token is the permission. The gateway checks the digest, so a
 * wrong or damaged file is refused there.
 */
final class StagedModels {

    /** A staged copy: what gateways fetch ({@code token}) and what they must find ({@code digest}). */
    record Staged(String token, String digest, long sizeBytes, Path file) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private final String publicBase;
    private final Map<String, Staged> byToken = new ConcurrentHashMap<>();

    /**
     * @param dir where copies are kept while they are served
     * @param publicBase how gateways reach {@link #mount}'s path, e.g. {@code http://10.0.0.5:8093/model-files}
     */
    StagedModels(Path dir, String publicBase) {
        this.dir = dir;
        this.publicBase = publicBase.endsWith("/") ? publicBase.substring(0, publicBase.length() - 1) : publicBase;
    }

    /** Copies {@code source} into the staging area and starts serving it. */
    Staged stage(Path source) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "staging", ".tmp");
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(source), sha)) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            byte[] raw = new byte[32];
            RANDOM.nextBytes(raw);
            String token = HexFormat.of().formatHex(raw);
            Path file = dir.resolve(token + ".onnx");
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            Staged staged = new Staged(token, "sha256:" + HexFormat.of().formatHex(sha.digest()), Files.size(file), file);
            byToken.put(token, staged);
            return staged;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String urlOf(Staged staged) {
        return publicBase + "/" + staged.token();
    }

    /** Stops serving a staged copy and deletes it. */
    void unstage(String token) {
        Staged staged = byToken.remove(token);
        if (staged != null) {
            try {
                Files.deleteIfExists(staged.file());
            } catch (IOException e) {
                // a leftover copy is harmless: it is no longer served
            }
        }
    }

    /** Serves staged copies at {@code GET <path>/<token>}; anything else is a 404 that says nothing. */
    void mount(Router router, String path) {
        router.get(path + "/:token").handler(rc -> {
            Staged staged = byToken.get(rc.pathParam("token"));
            if (staged == null) {
                rc.response().setStatusCode(404).end();
            } else {
                rc.response().putHeader("Content-Type", "application/octet-stream").sendFile(staged.file().toString());
            }
        });
    }
}
