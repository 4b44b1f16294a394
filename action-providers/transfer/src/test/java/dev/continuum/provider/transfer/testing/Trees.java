package dev.continuum.provider.transfer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Builds directory trees of random content and compares trees by content. */
public final class Trees {

    private Trees() {}

    /** Writes {@code path} with {@code size} pseudo-random bytes from {@code seed}. */
    public static void file(Path path, long size, long seed) {
        try {
            Files.createDirectories(path.getParent());
            Random random = new Random(seed);
            byte[] block = new byte[1 << 20];
            try (var out = Files.newOutputStream(path)) {
                for (long left = size; left > 0; ) {
                    random.nextBytes(block);
                    int n = (int) Math.min(block.length, left);
                    out.write(block, 0, n);
                    left -= n;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A tree with a large file, a few small ones, an empty file and an empty directory. */
    public static void sample(Path root) {
        file(root.resolve("big.bin"), 21L * 1024 * 1024 + 123, 1);
        file(root.resolve("a/one.txt"), 1000, 2);
        file(root.resolve("a/b/two.dat"), 6 * 1024 * 1024, 3);
        file(root.resolve("a/b/empty"), 0, 4);
        try {
            Files.createDirectories(root.resolve("c/empty-dir"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Relative path to SHA-256 of every regular file (directories as "dir"). */
    public static Map<String, String> digest(Path root) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                String rel = root.relativize(p).toString();
                if (Files.isDirectory(p)) {
                    out.put(rel, "dir");
                } else {
                    var md = java.security.MessageDigest.getInstance("SHA-256");
                    try (var in = Files.newInputStream(p)) {
                        byte[] buf = new byte[1 << 16];
                        for (int n; (n = in.read(buf)) > 0; ) {
                            md.update(buf, 0, n);
                        }
                    }
                    out.put(rel, java.util.HexFormat.of().formatHex(md.digest()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
