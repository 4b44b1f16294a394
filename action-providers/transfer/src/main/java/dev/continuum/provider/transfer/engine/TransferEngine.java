package dev.continuum.provider.transfer.engine;

import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.provider.transfer.endpoint.Storage;
import dev.continuum.provider.transfer.endpoint.Upload;
import dev.continuum.paths.EndpointPath;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Copies files between two storages in verified chunks, several at once, remembering each
 * verified chunk in a {@link TransferJournal} so that a rerun after a crash sends only the rest.
 *
 * <p>A chunk is read from the source into a buffer and hashed ({@link ChecksumAlgorithm}), that buffer
 * is written to the destination, read back and compared; a mismatch is logged, counted and the chunk
 * rewritten, up to {@code maxAttempts}. Between two local directories the chunk is instead copied in
 * the kernel and checked through memory mappings of both files (no user-space copy). Stores that
 * cannot be read before commit (S3 multipart) are verified chunk by chunk after the commit instead,
 * and the file is sent again on a mismatch.
 */
public final class TransferEngine {

    /** Hears about notable events, for the action log. */
    public interface Listener {
        void event(String code, String description);

        Listener NONE = (code, description) -> { };
    }

    /**
     * Bytes sent and verified at a destination, all transfers of this process (not those a rerun found already
     * there): its rate is the dashboard's transfer rate (deploy/grafana/continuum.json, row "Providers"), served by
     * the launcher with the other provider metrics.
     */
    private static final Counter BYTES_COPIED = Counter.builder("continuum.transfer.bytes").baseUnit("bytes")
            .description("Bytes the transfer provider copied and verified").register(Metrics.globalRegistry);

    private final TransferOptions options;

    /**
     * Smaller chunks go through a buffer even between local directories: for a 16 KiB file the kernel
     * copy's three opens and two mappings cost more than reading and writing it (10,000 × 16 KiB: 2.1
     * instead of 1.6 CPU-s, docs/benchmarks.md).
     */
    static final int KERNEL_COPY_MIN = 1024 * 1024;

    public TransferEngine(TransferOptions options) {
        this.options = options;
    }

    /** One file to send. */
    record FileJob(EndpointPath source, EndpointPath destination, long size, Instant modified) {
        int chunks(int chunkBytes) {
            return size == 0 ? 1 : (int) ((size + chunkBytes - 1) / chunkBytes);
        }
    }

    /**
     * Runs the transfer to its end. Throws {@link TransferFailedException} when it cannot finish;
     * the journal then keeps what was verified for the next attempt.
     */
    public Progress.Snapshot run(Storage source, Storage destination, List<TransferItem> items, SyncLevel syncLevel,
                                 TransferJournal journal, Progress progress, Listener listener, AtomicBoolean cancelled) {
        return run(source, destination, items, syncLevel, true, journal, progress, listener, cancelled);
    }

    /**
     * As above; with {@code verify} false the destination is not read back (chunks are still
     * hashed at the source for the journal, and S3 still checks Content-MD5).
     */
    public Progress.Snapshot run(Storage source, Storage destination, List<TransferItem> items, SyncLevel syncLevel,
                                 boolean verify, TransferJournal journal, Progress progress, Listener listener,
                                 AtomicBoolean cancelled) {
        return run(source, destination, items, syncLevel, verify, ChecksumAlgorithm.defaultForThisJvm(), journal, progress,
                listener, cancelled);
    }

    /** As above, hashing chunks with {@code algorithm}. */
    public Progress.Snapshot run(Storage source, Storage destination, List<TransferItem> items, SyncLevel syncLevel,
                                 boolean verify, ChecksumAlgorithm algorithm, TransferJournal journal, Progress progress,
                                 Listener listener, AtomicBoolean cancelled) {
        List<FileJob> jobs = new ArrayList<>();
        for (TransferItem item : items) {
            expand(source, destination, item, jobs);
        }
        progress.filesTotal.set(jobs.size());
        List<FileJob> toSend = new ArrayList<>();
        for (FileJob job : jobs) {
            if (alreadyThere(source, destination, job, syncLevel, algorithm, journal)) {
                progress.filesSkipped.incrementAndGet();
                progress.filesDone.incrementAndGet();
            } else {
                toSend.add(job);
                progress.bytesTotal.addAndGet(job.size());
            }
        }
        listener.event("TransferPlanned", jobs.size() + " files, " + toSend.size() + " to send ("
                + progress.bytesTotal.get() + " bytes), " + (jobs.size() - toSend.size()) + " already at the destination");
        new Run(source, destination, verify, algorithm, journal, progress, listener, cancelled).sendAll(toSend);
        return progress.snapshot();
    }

    private void expand(Storage source, Storage destination, TransferItem item, List<FileJob> jobs) {
        Entry entry;
        try {
            entry = source.stat(item.source()).orElseThrow(() -> new TransferFailedException("SourceNotFound",
                    "source path " + item.source() + " does not exist"));
        } catch (IOException e) {
            throw new TransferFailedException("SourceUnreadable", "cannot read source " + item.source() + ": " + e.getMessage(), e);
        }
        if (entry.isFile()) {
            jobs.add(new FileJob(item.source(), item.destination(), entry.size(), entry.modified()));
            return;
        }
        if (!entry.isDirectory()) {
            throw new TransferFailedException("NotAFile", "source path " + item.source() + " is neither a file nor a directory");
        }
        if (Boolean.FALSE.equals(item.recursive())) {
            throw new TransferFailedException("IsADirectory", "source path " + item.source()
                    + " is a directory; set recursive to true to copy it with its contents");
        }
        try {
            walk(source, destination, item.source(), item.destination(), jobs);
        } catch (IOException e) {
            throw new TransferFailedException("SourceUnreadable", "cannot list " + item.source() + ": " + e.getMessage(), e);
        }
    }

    private void walk(Storage source, Storage destination, EndpointPath dir, EndpointPath target, List<FileJob> jobs)
            throws IOException {
        destination.mkdirs(target);
        for (Entry child : source.list(dir)) {
            EndpointPath from = dir.child(child.name());
            EndpointPath to = target.child(child.name());
            if (child.isDirectory()) {
                walk(source, destination, from, to, jobs);
            } else if (child.isFile()) {
                jobs.add(new FileJob(from, to, child.size(), child.modified()));
            }
        }
    }

    private boolean alreadyThere(Storage source, Storage destination, FileJob job, SyncLevel level,
                                 ChecksumAlgorithm algorithm, TransferJournal journal) {
        Optional<Entry> there;
        try {
            there = destination.stat(job.destination());
        } catch (IOException e) {
            throw new TransferFailedException("DestinationUnreadable", "cannot read " + job.destination() + ": " + e.getMessage(), e);
        }
        if (there.isEmpty() || !there.get().isFile()) {
            return false;
        }
        Entry dest = there.get();
        boolean doneByEarlierRun = journal.find(job.destination().relative())
                .filter(r -> r.done() && r.size() == job.size() && r.mtimeMillis() == job.modified().toEpochMilli())
                .isPresent() && dest.size() == job.size();
        if (doneByEarlierRun) {
            return true;
        }
        if (level == null) {
            return false;
        }
        return switch (level) {
            case EXISTS -> true;
            case SIZE -> dest.size() == job.size();
            case MTIME -> dest.size() == job.size()
                    && !dest.modified().truncatedTo(ChronoUnit.SECONDS).isBefore(job.modified().truncatedTo(ChronoUnit.SECONDS));
            case CHECKSUM -> dest.size() == job.size()
                    && fileChecksum(source, job.source(), job.size(), algorithm)
                            .equals(fileChecksum(destination, job.destination(), job.size(), algorithm));
        };
    }

    /** The hashes of the file's chunks, one after the other: equal for equal contents. */
    private String fileChecksum(Storage storage, EndpointPath path, long size, ChecksumAlgorithm algorithm) {
        StringBuilder hashes = new StringBuilder();
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(options.chunkBytes(), Math.max(1, size)));
        try {
            for (long offset = 0; offset < size; ) {
                buffer.clear();
                int n = storage.read(path, offset, buffer);
                if (n <= 0) {
                    break;
                }
                buffer.flip();
                hashes.append(algorithm.hex(buffer)).append(' ');
                offset += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return hashes.toString();
    }

    /** The state of one execution: workers, open uploads, the first failure. */
    private final class Run {
        private final Storage source;
        private final Storage destination;
        private final TransferJournal journal;
        private final Progress progress;
        private final Listener listener;
        private final AtomicBoolean cancelled;
        private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        private final ThreadLocal<ByteBuffer[]> buffers;
        private final List<OpenFile> opened = new java.util.concurrent.CopyOnWriteArrayList<>();
        private long nextSendNanos = System.nanoTime();

        private final boolean verify;
        private final ChecksumAlgorithm algorithm;

        Run(Storage source, Storage destination, boolean verify, ChecksumAlgorithm algorithm, TransferJournal journal,
            Progress progress, Listener listener, AtomicBoolean cancelled) {
            this.verify = verify;
            this.algorithm = algorithm;
            this.source = source;
            this.destination = destination;
            this.journal = journal;
            this.progress = progress;
            this.listener = listener;
            this.cancelled = cancelled;
            // heap buffers: SHA-256 of a byte[] runs the multi-block intrinsic over the whole chunk, while a
            // direct buffer is hashed through 4 KiB copies (measured 20-30% slower); the JDK's copy of a heap
            // buffer through its cached native buffer for read/write costs less than that
            this.buffers = ThreadLocal.withInitial(() -> new ByteBuffer[] {
                    ByteBuffer.allocate(options.chunkBytes()), ByteBuffer.allocate(options.chunkBytes())});
        }

        /** Spaces chunk sends so that the transfer stays under maxBytesPerSecond. */
        private void pace(int bytes) {
            long bps = options.maxBytesPerSecond();
            if (bps <= 0) {
                return;
            }
            long wait;
            synchronized (this) {
                long now = System.nanoTime();
                nextSendNanos = Math.max(nextSendNanos, now);
                wait = nextSendNanos - now;
                nextSendNanos += (long) (bytes * 1e9 / bps);
            }
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        void sendAll(List<FileJob> jobs) {
            // bounded in-flight chunks: memory stays parallelism x 2 chunk buffers
            Semaphore inFlight = new Semaphore(options.parallelism() * 2);
            // the workers send chunks in the caller's trace (a device's storage spans join it: docs/operations.md "Traces")
            try (ExecutorService workers = Context.taskWrapping(Executors.newFixedThreadPool(options.parallelism(), r -> {
                Thread t = new Thread(r, "transfer-worker");
                t.setDaemon(true);
                return t;
            }))) {
                for (FileJob job : jobs) {
                    OpenFile file = new OpenFile(job);
                    opened.add(file);
                    for (int i = 0; i < file.chunkCount; i++) {
                        if (failure.get() != null || cancelled.get()) {
                            break;
                        }
                        inFlight.acquireUninterruptibly();
                        int index = i;
                        workers.execute(() -> {
                            try {
                                if (failure.get() == null && !cancelled.get()) {
                                    file.sendChunk(index);
                                }
                            } catch (RuntimeException e) {
                                failure.compareAndSet(null, e);
                            } catch (Error e) {   // a chunk that dies unrecorded would leave its file unfinished
                                failure.compareAndSet(null, new TransferFailedException("TransferError", String.valueOf(e), e));
                                throw e;
                            } finally {
                                inFlight.release();
                            }
                        });
                    }
                }
            }
            for (OpenFile file : opened) {
                if (cancelled.get()) {
                    file.abort();   // a cancelled transfer leaves no partial files behind
                } else {
                    file.close();   // keeps partial data of unfinished files for a resume
                }
            }
            if (cancelled.get()) {
                throw new TransferFailedException("Cancelled", "the transfer was cancelled");
            }
            RuntimeException e = failure.get();
            if (e instanceof TransferFailedException tfe) {
                throw tfe;
            }
            if (e != null) {
                throw new TransferFailedException(destinationFull(e) ? "DestinationFull" : "TransferError",
                        e.getMessage() == null ? e.toString() : e.getMessage(), e);
            }
        }

        /** One destination file while its chunks are in flight. */
        private final class OpenFile {
            final FileJob job;
            final String key;
            final int chunkCount;
            final AtomicInteger remaining;
            private Upload upload;
            /** The source as a local file, when it is one and the destination copies in the kernel. */
            private volatile Path sourceFile;

            OpenFile(FileJob job) {
                this.job = job;
                this.key = job.destination().relative();
                this.chunkCount = job.chunks(options.chunkBytes());
                this.remaining = new AtomicInteger(chunkCount);
            }

            synchronized Upload upload() throws IOException {
                if (upload == null) {
                    long mtime = job.modified().toEpochMilli();
                    Optional<TransferJournal.FileRecord> known = journal.find(key)
                            .filter(r -> r.size() == job.size() && r.mtimeMillis() == mtime);
                    if (journal.find(key).isPresent() && known.isEmpty()) {
                        journal.forget(key);   // the source changed since: start over
                    }
                    upload = destination.openUpload(job.destination(), job.size(), job.modified(), known.map(r -> r.token()).orElse(null));
                    sourceFile = source.localFile(job.source()).orElse(null);
                    if (known.isEmpty() || !upload.resumed() || !upload.resumeToken().equals(known.get().token())) {
                        if (known.isPresent()) {
                            journal.forget(key);   // the partial data is gone: its chunks must be sent again
                            listener.event("ResumeLost", "partial data of " + job.destination() + " is gone; sending it again");
                        }
                        journal.uploadStarted(key, upload.resumeToken(), job.size(), mtime);
                    }
                }
                return upload;
            }

            synchronized void abort() {
                if (upload != null && remaining.get() > 0) {
                    try {
                        upload.abort();
                    } catch (IOException ignored) {
                        // best effort: a leftover partial file is harmless and overwritten next time
                    }
                }
            }

            synchronized void close() {
                if (upload != null) {
                    try {
                        upload.close();
                    } catch (IOException ignored) {
                        // the handle is gone either way
                    }
                }
            }

            void sendChunk(int index) {
                try {
                    Upload up = upload();
                    long offset = (long) index * options.chunkBytes();
                    int length = (int) Math.min(options.chunkBytes(), job.size() - offset);
                    if (journal.chunk(key, index).isPresent()) {
                        progress.bytesDone.addAndGet(length);
                        progress.bytesResumed.addAndGet(length);
                    } else {
                        sendVerified(up, index, offset, length);
                        progress.bytesDone.addAndGet(length);
                        BYTES_COPIED.increment(length);
                    }
                    if (remaining.decrementAndGet() == 0) {
                        finish(up);
                    }
                } catch (IOException e) {
                    throw new TransferFailedException(destinationFull(e) ? "DestinationFull" : "TransferError", "cannot copy "
                            + job.source() + " to " + job.destination() + ": " + e.getMessage(), e);
                }
            }

            private void sendVerified(Upload up, int index, long offset, int length) throws IOException {
                Path from = sourceFile;
                if (length >= KERNEL_COPY_MIN && from != null && sendCopied(up, from, index, offset, length)) {
                    return;
                }
                ByteBuffer[] pair = buffers.get();
                ByteBuffer data = pair[0];
                data.clear().limit(length);
                int read = source.read(job.source(), offset, data);
                if (read != length) {
                    throw new TransferFailedException("SourceChanged", "source " + job.source()
                            + " changed during the transfer (expected " + length + " bytes at " + offset + ", read " + read + ")");
                }
                data.flip();
                pace(length);
                String expected = algorithm.hex(data);
                for (int attempt = 1; ; attempt++) {
                    String receipt;
                    try {
                        receipt = up.write(index, offset, data.duplicate());
                    } catch (IOException e) {
                        retryOrFail(attempt, "write of chunk " + index + " of " + job.destination() + " failed: " + e.getMessage(), e);
                        continue;
                    }
                    String actual = verify ? destinationDiffers(up, offset, length, data, pair[1], expected) : null;
                    if (actual != null) {
                        mismatch(index, offset, length, expected, actual, attempt);
                        continue;
                    }
                    journal.chunkVerified(key, index, algorithm.journalValue(expected), receipt);
                    return;
                }
            }

            private void mismatch(int index, long offset, int length, String expected, String actual, int attempt) {
                progress.checksumMismatches.incrementAndGet();
                listener.event("ChecksumMismatch", "chunk " + index + " of " + job.destination()
                        + " (bytes " + offset + "-" + (offset + length - 1) + "): expected " + algorithm.id() + " " + expected
                        + ", destination holds " + actual + "; attempt " + attempt + " of " + options.maxAttempts());
                retryOrFail(attempt, "checksum mismatch on chunk " + index + " of " + job.destination(), null);
            }

            /**
             * Local file to local file: the kernel copies the chunk ({@code copy_file_range}, no user-space
             * copy, as {@code cp}), then through read-only mappings the destination's bytes are hashed and
             * compared byte for byte with the source's in one pass; the hash recorded is that of the
             * destination's bytes. False when the destination cannot take a kernel copy (the caller then
             * reads and writes).
             */
            private boolean sendCopied(Upload up, Path from, int index, long offset, int length) throws IOException {
                try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ)) {
                    return copyAndVerify(up, from, in, index, offset, length);
                } catch (InternalError e) {
                    // the JVM's answer to SIGBUS: a mapped page beyond the end of a file truncated meanwhile
                    throw new TransferFailedException("SourceChanged", "source " + job.source()
                            + " was truncated during the transfer", e);
                }
            }

            private boolean copyAndVerify(Upload up, Path from, FileChannel in, int index, long offset,
                                          int length) throws IOException {
                if (in.size() < offset + length) {
                    throw new TransferFailedException("SourceChanged", "source " + job.source()
                            + " changed during the transfer (expected " + length + " bytes at " + offset + ", it has "
                            + in.size() + " bytes)");
                }
                pace(length);
                ByteBuffer src = null;
                for (int attempt = 1; ; attempt++) {
                    try {
                        if (!up.copyFrom(from, offset, length)) {
                            sourceFile = null;   // this destination takes no kernel copies: buffer the other chunks too
                            return false;
                        }
                    } catch (IOException e) {
                        retryOrFail(attempt, "copy of chunk " + index + " of " + job.destination() + " failed: " + e.getMessage(), e);
                        continue;
                    }
                    if (src == null) {
                        src = in.map(FileChannel.MapMode.READ_ONLY, offset, length);
                    }
                    if (!verify) {
                        journal.chunkVerified(key, index, algorithm.journalValue(algorithm.hex(src.duplicate())), "");
                        return true;
                    }
                    ByteBuffer there = destinationBytes(up, offset, length);
                    String hash = algorithm.hexIfEqual(there.duplicate(), src.duplicate());
                    if (hash == null) {
                        mismatch(index, offset, length, algorithm.hex(src.duplicate()), algorithm.hex(there.duplicate()), attempt);
                        continue;
                    }
                    journal.chunkVerified(key, index, algorithm.journalValue(hash), "");
                    return true;
                }
            }

            /** The destination's bytes of a chunk: mapped where the storage can, else read back into a buffer. */
            private ByteBuffer destinationBytes(Upload up, long offset, int length) throws IOException {
                Optional<ByteBuffer> mapped = up.map(offset, length);
                if (mapped.isPresent()) {
                    return mapped.get();
                }
                ByteBuffer back = buffers.get()[1];
                back.clear().limit(length);
                up.readBack(offset, back);
                return back.flip();
            }

            /**
             * Null when the destination holds exactly {@code data} for this chunk (or cannot be read before
             * commit); else the SHA-256 of what it holds. A storage that hashes where the data lives (a
             * gateway) answers with the hash, so no chunk crosses the link twice; one that reads back locally
             * is compared byte for byte with the very buffer that was hashed and written — equal bytes mean
             * equal hashes, and a vectorised compare costs a fraction of a second SHA-256 pass.
             */
            private String destinationDiffers(Upload up, long offset, int length, ByteBuffer data, ByteBuffer back,
                                              String expected) throws IOException {
                Optional<String> remote = up.hashBack(offset, length);
                if (remote.isPresent()) {   // a gateway answers SHA-256 whatever the transfer's algorithm
                    String ours = algorithm == ChecksumAlgorithm.SHA256 ? expected : Sha256.hex(data);
                    return remote.get().equals(ours) ? null : "sha256 " + remote.get();
                }
                back.clear().limit(length);
                if (!up.readBack(offset, back)) {
                    return null;   // verified after commit instead (verifyCommitted)
                }
                back.flip();
                return back.mismatch(data.duplicate()) == -1 ? null : algorithm.hex(back);
            }

            private void retryOrFail(int attempt, String what, Throwable cause) {
                if (destinationFull(cause)) {
                    throw new TransferFailedException("DestinationFull", what, cause); // another try finds it as full
                }
                if (attempt >= options.maxAttempts()) {
                    throw new TransferFailedException(cause == null ? "ChecksumMismatch" : "TransferError",
                            what + " after " + attempt + " attempts", cause);
                }
                progress.retries.incrementAndGet();
                try {
                    Thread.sleep(options.retryBackoff().toMillis() << (attempt - 1));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransferFailedException("Cancelled", "interrupted");
                }
            }

            private void finish(Upload up) throws IOException {
                up.commit(job.modified(), journal.receipts(key));
                ByteBuffer probe = ByteBuffer.allocate(0);
                if (verify && !up.readBack(0, probe)) {
                    verifyCommitted();
                }
                journal.fileDone(key, job.size(), job.modified().toEpochMilli());
                progress.filesDone.incrementAndGet();
            }

            /** For stores that cannot be read before commit: compare every chunk of the committed file. */
            private void verifyCommitted() throws IOException {
                ByteBuffer back = buffers.get()[1];
                for (int i = 0; i < chunkCount; i++) {
                    long offset = (long) i * options.chunkBytes();
                    int length = (int) Math.min(options.chunkBytes(), job.size() - offset);
                    back.clear().limit(length);
                    destination.read(job.destination(), offset, back);
                    back.flip();
                    String recorded = journal.chunk(key, i).map(TransferJournal.Chunk::checksum).orElse("");
                    ChecksumAlgorithm recordedWith = ChecksumAlgorithm.ofJournalValue(recorded);
                    String actual = recordedWith.hex(back);
                    String expected = ChecksumAlgorithm.hexOfJournalValue(recorded);
                    if (!actual.equals(expected)) {
                        progress.checksumMismatches.incrementAndGet();
                        listener.event("ChecksumMismatch", "committed " + job.destination() + " differs in chunk " + i
                                + ": expected " + recordedWith.id() + " " + expected + ", found " + actual);
                        journal.forget(key);
                        throw new TransferFailedException("ChecksumMismatch", "committed file " + job.destination()
                                + " differs from the source in chunk " + i + "; it will be sent again on retry");
                    }
                }
            }
        }
    }

    /**
     * Whether a failure is the destination's file system being full (ENOSPC) or over quota (EDQUOT), which the JDK
     * reports only by the system's message; such a transfer fails as {@code DestinationFull} instead of retrying.
     */
    static boolean destinationFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (t instanceof IOException && message != null
                    && (message.contains("No space left on device") || message.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }
}
