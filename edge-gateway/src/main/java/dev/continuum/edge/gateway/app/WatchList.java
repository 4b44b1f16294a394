package dev.continuum.edge.gateway.app;

import dev.continuum.edge.gateway.files.FileWatcher;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Wire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The watches the cloud asked for (retained on the device's {@code watches} topic), kept in the state directory as
 * well, so a gateway started while the broker is unreachable watches what it watched before.
 */
final class WatchList {

    private static final Logger LOG = Logger.getLogger(WatchList.class.getName());

    private final Path kept;
    private final FileWatcher watcher;

    WatchList(Path kept, FileWatcher watcher) {
        this.kept = kept;
        this.watcher = watcher;
    }

    void loadKept() {
        if (Files.exists(kept)) {
            try {
                watcher.update(Wire.decode(Files.readAllBytes(kept), FileWatch.Watches.class).watches());
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "cannot read the kept watches " + kept + "; waiting for the cloud's", e);
            }
        }
    }

    void received(byte[] payload) {
        FileWatch.Watches watches;
        try {
            watches = Wire.decode(payload, FileWatch.Watches.class);
        } catch (RuntimeException e) {
            LOG.warning("ignored a malformed watch list: " + e.getMessage());
            return;
        }
        watcher.update(watches.watches());
        try {
            Path temp = kept.resolveSibling(kept.getFileName() + ".tmp");
            Files.write(temp, payload);
            Files.move(temp, kept, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot keep the watch list in " + kept, e);
        }
        LOG.info(() -> "watching " + watches.watches().size() + " path(s)");
    }
}
