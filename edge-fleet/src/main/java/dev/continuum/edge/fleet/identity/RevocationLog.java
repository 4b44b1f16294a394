package dev.continuum.edge.fleet.identity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Revocations on disk, one line each ({@code device <id>}, {@code reinstate <id>},
 * {@code credential <credential id>}), appended and synced, replayed in order. A restarted provider
 * keeps refusing what was revoked, and an operator revokes a device of a running provider by
 * appending to the file ({@code --revoke-device}); the provider re-reads it every 2 s
 * (whole: a modification-time check could miss an append within one timestamp tick).
 */
public final class RevocationLog {

    /** What the file says now. */
    public record Revoked(Set<String> devices, Set<String> credentialIds) {}

    private final Path file;

    public RevocationLog(Path file) {
        this.file = file;
    }

    public synchronized void append(String kind, String value) {
        if (!List.of("device", "reinstate", "credential").contains(kind) || value.isBlank() || value.contains("\n")) {
            throw new IllegalArgumentException("bad revocation " + kind + " " + value);
        }
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap((kind + " " + value + "\n").getBytes(StandardCharsets.UTF_8)));
                ch.force(true); // a revocation that a crash could undo is no revocation
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record revocation in " + file, e);
        }
    }

    public Revoked read() {
        Set<String> devices = new HashSet<>();
        Set<String> credentials = new HashSet<>();
        try {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] p = line.trim().split(" ", 2);
                    if (p.length < 2) {
                        continue;
                    }
                    switch (p[0]) {
                        case "device" -> devices.add(p[1]);
                        case "reinstate" -> devices.remove(p[1]);
                        case "credential" -> credentials.add(p[1]);
                        default -> { } // a line from a newer version: ignore, keep the rest
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read revocations from " + file, e);
        }
        return new Revoked(devices, credentials);
    }
}
