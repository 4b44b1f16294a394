package dev.continuum.provider.transfer.gateway;

import dev.continuum.paths.EndpointPath;
import dev.continuum.provider.transfer.endpoint.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads small files from a gateway in batches: one request/reply per file is what makes a tree of
 * many small files slow over a broker (each pair waits a round trip). When the engine asks for
 * the start of a small file whose directory was just listed, the next small files of that listing
 * are fetched with it in one {@code readmany} request; the engine's reads of those files are then
 * answered from memory. Fetched content is kept at most {@link #MAX_AGE_NANOS} and only until read
 * once, so a file changed later is read again from the device. Bounded: files of at most
 * {@link #SMALL} bytes, {@link #FILES} per batch, {@link #MAX_PENDING} waiting in all.
 */
final class SmallFileBatches {

    static final int SMALL = 64 * 1024;
    static final int FILES = 64;
    static final int MAX_PENDING = 4 * FILES;
    static final long MAX_AGE_NANOS = 10_000_000_000L;

    /** Fetches the files' contents in one request; an absent or failed file is null. */
    interface Fetcher {
        List<byte[]> fetch(List<EndpointPath> files) throws IOException;
    }

    private record Pending(CompletableFuture<byte[]> content, long bornNanos) {}

    private final Map<String, List<Entry>> listings = java.util.Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<dev.continuum.provider.transfer.endpoint.Entry>> eldest) {
            return size() > 1024;   // the engine lists a whole tree, then reads it: keep that many directories
        }
    });
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Fetcher fetcher;

    SmallFileBatches(Fetcher fetcher) {
        this.fetcher = fetcher;
    }

    void listed(EndpointPath dir, List<Entry> entries) {
        listings.put(dir.relative(), entries);
    }

    /** The whole content of {@code file} if it is a small file that could be batched; null means "read it yourself". */
    byte[] read(EndpointPath file) throws IOException {
        Pending mine = pending.remove(file.relative());
        if (mine != null && System.nanoTime() - mine.bornNanos() < MAX_AGE_NANOS) {
            return mine.content().join();
        }
        List<Entry> siblings = listings.get(file.parent().relative());
        if (siblings == null || pending.size() > MAX_PENDING) {
            return null;
        }
        List<EndpointPath> batch = new ArrayList<>();
        List<CompletableFuture<byte[]>> futures = new ArrayList<>();
        boolean found = false;
        for (Entry e : siblings) {
            if (!found) {
                found = e.name().equals(file.name());
                if (!found) {
                    continue;
                }
                if (!e.isFile() || e.size() > SMALL) {
                    return null;
                }
                batch.add(file);
                futures.add(new CompletableFuture<>());
                continue;
            }
            if (batch.size() >= FILES) {
                break;
            }
            EndpointPath next = file.parent().child(e.name());
            CompletableFuture<byte[]> f = new CompletableFuture<>();
            if (e.isFile() && e.size() <= SMALL && pending.putIfAbsent(next.relative(), new Pending(f, System.nanoTime())) == null) {
                batch.add(next);
                futures.add(f);
            }
        }
        if (batch.isEmpty()) {
            return null;
        }
        try {
            List<byte[]> contents = fetcher.fetch(batch);
            for (int i = 0; i < futures.size(); i++) {
                futures.get(i).complete(i < contents.size() ? contents.get(i) : null);
            }
        } catch (IOException | RuntimeException e) {
            futures.forEach(f -> f.complete(null));   // everyone falls back to a plain read
            for (int i = 1; i < batch.size(); i++) {
                pending.remove(batch.get(i).relative());
            }
            return null;
        }
        return futures.get(0).join();
    }
}
