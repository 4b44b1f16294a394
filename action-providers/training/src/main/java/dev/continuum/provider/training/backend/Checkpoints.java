package dev.continuum.provider.training.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The checkpoint directory's layout: a complete checkpoint is a file or directory named
 * {@code ckpt-<step>} (step in decimal, any zero padding) directly in CONTINUUM_CHECKPOINT_DIR.
 * Jobs write it under another name (by convention {@code .tmp-ckpt-<step>}) and rename it when it
 * is complete; everything not matching the pattern is ignored, so a half-written checkpoint is
 * never listed. The newest checkpoint is the one with the highest step.
 */
public final class Checkpoints {
    private static final Pattern NAME = Pattern.compile("ckpt-(\\d{1,18})");

    private Checkpoints() {
    }

    /** One complete checkpoint: its step, path, size in bytes (whole tree) and modification time. */
    public record Checkpoint(long step, Path path, long sizeBytes, Instant modified) {
    }

    /** The complete checkpoints in {@code dir}, oldest (lowest step) first; empty if none or no dir. */
    public static List<Checkpoint> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(Checkpoints::read).flatMap(Optional::stream)
                    .sorted(Comparator.comparingLong(Checkpoint::step)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Optional<Checkpoint> newest(Path dir) {
        List<Checkpoint> all = list(dir);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.getLast());
    }

    /** The name of the complete checkpoint for a step (zero-padded so names also sort). */
    public static String name(long step) {
        return String.format("ckpt-%012d", step);
    }

    /** The name to write a checkpoint under before renaming it to {@link #name(long)}. */
    public static String temporaryName(long step) {
        return ".tmp-" + name(step);
    }

    /**
     * SHA-256 (hex) of a checkpoint's content: a file's bytes; for a directory, each regular file's path relative to
     * it, size and bytes in path order. The same content gives the same digest wherever it lies, so a checkpoint
     * carried to another site can be compared with its source.
     */
    public static String sha256(Path checkpoint) throws IOException {
        java.security.MessageDigest digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        List<Path> files;
        if (Files.isDirectory(checkpoint)) {
            try (Stream<Path> tree = Files.walk(checkpoint)) {
                files = tree.filter(Files::isRegularFile).sorted(Comparator.comparing(f -> checkpoint.relativize(f).toString()))
                        .toList();
            }
        } else {
            files = List.of(checkpoint);
        }
        byte[] buffer = new byte[1 << 16];
        for (Path f : files) {
            if (Files.isDirectory(checkpoint)) {
                digest.update((checkpoint.relativize(f) + "\0" + Files.size(f) + "\0")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            try (var in = Files.newInputStream(f)) {
                for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                    digest.update(buffer, 0, n);
                }
            }
        }
        return java.util.HexFormat.of().formatHex(digest.digest());
    }

    private static Optional<Checkpoint> read(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Checkpoint(Long.parseLong(m.group(1)), p, size(p),
                    Files.getLastModifiedTime(p).toInstant()));
        } catch (IOException | UncheckedIOException e) {
            // deleted while we looked (a job pruning old checkpoints): not a checkpoint any more
            return Optional.empty();
        }
    }

    private static long size(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return Files.size(p);
        }
        try (Stream<Path> tree = Files.walk(p)) {
            return tree.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }
}
