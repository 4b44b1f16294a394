package dev.continuum.provider.transfer.engine;

import java.util.Locale;

/**
 * When a file already at the destination is left alone (Globus sync levels 0-3). Without a sync
 * level every file is sent.
 */
public enum SyncLevel {
    /** 0: skip when the destination file exists. */
    EXISTS,
    /** 1: skip when it exists with the same size. */
    SIZE,
    /** 2: skip when it has the same size and is not older than the source (seconds). */
    MTIME,
    /** 3: skip when it has the same size and the same SHA-256. */
    CHECKSUM;

    /** Accepts 0-3 (number or digit string) and the names, case-insensitively. */
    public static SyncLevel parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "0", "exists" -> EXISTS;
            case "1", "size" -> SIZE;
            case "2", "mtime" -> MTIME;
            case "3", "checksum" -> CHECKSUM;
            default -> throw new IllegalArgumentException(
                    "sync_level must be 0-3 or exists, size, mtime, checksum, not '" + text + "'");
        };
    }
}
