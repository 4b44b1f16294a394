package dev.continuum.edge.gateway.inference;

import dev.continuum.edge.protocol.Heartbeat.LoadedModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Models by content digest ({@code sha256:<hex>}), cached on disk as {@code <hex>.onnx} and
 * loaded once. Names and versions are aliases: {@link #deploy} points {@code name} (and
 * {@code name@version}) at a digest. Swapping a name to a new version never drops a request:
 * a running inference holds a {@link Lease} on the session it started with, and a retired
 * model's session is closed only when its last lease ends.
 */
public final class ModelRepository implements AutoCloseable {

    /** A session borrowed for one inference (or batch); close it when done. */
    public interface Lease extends AutoCloseable {
        String digest();
        OnnxModel model();
        @Override void close();
    }

    public static final class UnknownModelException extends RuntimeException {
        public UnknownModelException(String reference) {
            super("model not deployed on this device: " + reference);
        }
    }

    private static final class Loaded {
        final String digest;
        final OnnxModel model;
        int leases;
        boolean retired;

        Loaded(String digest, OnnxModel model) {
            this.digest = digest;
            this.model = model;
        }
    }

    private record Alias(String name, String version) {}

    private final Path cacheDir;
    private final boolean preferGpu;
    private final Map<String, Loaded> loaded = new HashMap<>();
    private final Map<String, String> aliases = new HashMap<>();
    private final Map<String, Alias> deployedAs = new HashMap<>();
    private final java.util.Set<String> retired = new java.util.HashSet<>();

    public ModelRepository(Path cacheDir, boolean preferGpu) {
        this.cacheDir = cacheDir;
        this.preferGpu = preferGpu;
        try {
            Files.createDirectories(cacheDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a model file into the cache (if not there yet) and returns its digest. */
    public String install(Path source) {
        try (InputStream in = Files.newInputStream(source)) {
            return install(in, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stores a model from a stream; when {@code expectedDigest} is given, refuses content that does not match it. */
    public String install(InputStream content, String expectedDigest) {
        try {
            Path tmp = Files.createTempFile(cacheDir, "incoming", ".tmp");
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (DigestInputStream in = new DigestInputStream(content, sha)) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            String hex = HexFormat.of().formatHex(sha.digest());
            String digest = "sha256:" + hex;
            if (expectedDigest != null && !expectedDigest.equals(digest)) {
                Files.deleteIfExists(tmp);
                throw new IllegalArgumentException("model content has digest " + digest + ", expected " + expectedDigest);
            }
            Path target = cacheDir.resolve(hex + ".onnx");
            if (Files.exists(target)) {
                Files.delete(tmp);
            } else {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return digest;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Makes {@code name} and {@code name@version} resolve to {@code digest} (loading it now); the previous version stays reachable by its digest and {@code name@oldversion}. */
    public synchronized void deploy(String name, String version, String digest) {
        retired.remove(digest);
        Loaded model = load(digest);
        model.retired = false;
        aliases.put(name, digest);
        aliases.put(name + "@" + version, digest);
        deployedAs.put(digest, new Alias(name, version));
    }

    /** Unloads a model once no inference holds it; later requests for it fail as unknown. */
    public synchronized void retire(String digest) {
        retired.add(digest);
        aliases.values().removeIf(digest::equals);
        deployedAs.remove(digest);
        Loaded model = loaded.get(digest);
        if (model == null) {
            return;
        }
        model.retired = true;
        aliases.values().removeIf(digest::equals);
        deployedAs.remove(digest);
        if (model.leases == 0) {
            loaded.remove(digest);
            model.model.close();
        }
    }

    /** Resolves a digest, name or name@version and borrows its session. */
    public synchronized Lease acquire(String reference) {
        String digest = reference.startsWith("sha256:") ? reference : aliases.get(reference);
        if (digest == null || retired.contains(digest)) {
            throw new UnknownModelException(reference);
        }
        Loaded model = loaded.get(digest);
        if (model == null || model.retired) {
            if (model == null && Files.exists(fileOf(digest))) {
                model = load(digest);
            } else {
                throw new UnknownModelException(reference);
            }
        }
        model.leases++;
        Loaded held = model;
        return new Lease() {
            private boolean closed;
            @Override public String digest() { return held.digest; }
            @Override public OnnxModel model() { return held.model; }
            @Override public void close() {
                synchronized (ModelRepository.this) {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    held.leases--;
                    if (held.retired && held.leases == 0 && loaded.get(held.digest) == held) {
                        loaded.remove(held.digest);
                        held.model.close();
                    }
                }
            }
        };
    }

    public synchronized boolean has(String reference) {
        String digest = reference.startsWith("sha256:") ? reference : aliases.get(reference);
        return digest != null && !retired.contains(digest) && (loaded.containsKey(digest) && !loaded.get(digest).retired || Files.exists(fileOf(digest)));
    }

    /** What the heartbeat reports: every cached model and the name/version it is deployed under. */
    public synchronized List<LoadedModel> inventory() {
        List<LoadedModel> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(cacheDir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".onnx")).sorted().toList()) {
                String digest = "sha256:" + p.getFileName().toString().replace(".onnx", "");
                if (retired.contains(digest)) {
                    continue;
                }
                Alias alias = deployedAs.get(digest);
                out.add(new LoadedModel(digest, alias == null ? null : alias.name(), alias == null ? null : alias.version()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** "CUDA" when any loaded model runs on the GPU, else "CPU". */
    public synchronized String executionProvider() {
        return loaded.values().stream().anyMatch(l -> l.model.executionProvider().equals("CUDA")) ? "CUDA" : "CPU";
    }

    @Override
    public synchronized void close() {
        loaded.values().forEach(l -> l.model.close());
        loaded.clear();
    }

    private Loaded load(String digest) {
        Loaded existing = loaded.get(digest);
        if (existing != null) {
            return existing;
        }
        Path file = fileOf(digest);
        if (!Files.exists(file)) {
            throw new UnknownModelException(digest);
        }
        Loaded fresh = new Loaded(digest, OnnxModel.load(file, preferGpu));
        loaded.put(digest, fresh);
        return fresh;
    }

    private Path fileOf(String digest) {
        if (!digest.matches("sha256:[0-9a-f]{64}")) {
            throw new UnknownModelException(digest);
        }
        return cacheDir.resolve(digest.substring("sha256:".length()) + ".onnx");
    }
}
