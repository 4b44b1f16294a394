package dev.continuum.provider.transfer.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.Storage;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.provider.transfer.testing.FaultyStorage;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferEngineTest {

    private static final int MIB = 1024 * 1024;

    @TempDir Path tmp;

    private final List<String> events = new ArrayList<>();
    private final TransferEngine engine = new TransferEngine(TransferOptions.defaults().withChunkBytes(5 * MIB));

    private Progress.Snapshot copy(Storage src, Storage dst, SyncLevel level, TransferJournal journal) {
        return copy(src, dst, level, ChecksumAlgorithm.defaultForThisJvm(), journal);
    }

    private Progress.Snapshot copy(Storage src, Storage dst, SyncLevel level, ChecksumAlgorithm algorithm,
                                   TransferJournal journal) {
        return engine.run(src, dst, List.of(new TransferItem(PathNormalizer.normalize("/"), PathNormalizer.normalize("/copy"), true)),
                level, true, algorithm, journal, new Progress(), (code, text) -> events.add(code + ": " + text), new AtomicBoolean());
    }

    /** The source seen as a storage that is not a local file (as a gateway or S3 is): chunks pass through a buffer. */
    private Storage notLocal(Path root) {
        return new FaultyStorage(new LocalStorage(root), 0, Integer.MAX_VALUE);
    }

    @Test
    void shouldCopyATreeWithIdenticalContent() {
        Trees.sample(tmp.resolve("src"));
        Progress.Snapshot result = copy(new LocalStorage(tmp.resolve("src")), new LocalStorage(tmp.resolve("dst")), null,
                TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("dst/copy"))).isEqualTo(Trees.digest(tmp.resolve("src")));
        assertThat(result.filesDone()).isEqualTo(4);
        assertThat(result.bytesDone()).isEqualTo(result.bytesTotal()).isEqualTo(27L * MIB + 123 + 1000);
    }

    @Test
    void shouldKeepSourceModificationTimes() throws IOException {
        Trees.file(tmp.resolve("src/x"), 10, 1);
        Files.setLastModifiedTime(tmp.resolve("src/x"), FileTime.from(Instant.parse("2020-01-02T03:04:05Z")));
        copy(new LocalStorage(tmp.resolve("src")), new LocalStorage(tmp.resolve("dst")), null, TransferJournal.open(tmp.resolve("j")));
        assertThat(Files.getLastModifiedTime(tmp.resolve("dst/copy/x")).toInstant()).isEqualTo(Instant.parse("2020-01-02T03:04:05Z"));
    }

    @Test
    void shouldResendNoVerifiedChunkAfterAnInterruptedRun() {
        Trees.sample(tmp.resolve("src"));
        LocalStorage src = new LocalStorage(tmp.resolve("src"));
        Path journalFile = tmp.resolve("j");
        FaultyStorage dying = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 0, 3);
        assertThatThrownBy(() -> copy(src, dying, null, TransferJournal.open(journalFile)))
                .isInstanceOf(TransferFailedException.class).hasMessageContaining("injected failure");
        long sentBefore = dying.bytesWritten.get();

        FaultyStorage healthy = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 0, Integer.MAX_VALUE);
        Progress.Snapshot second = copy(src, healthy, null, TransferJournal.open(journalFile));

        assertThat(Trees.digest(tmp.resolve("dst/copy"))).isEqualTo(Trees.digest(tmp.resolve("src")));
        assertThat(sentBefore).isPositive();
        assertThat(second.bytesResumed() + second.filesSkipped()).isPositive();
        // every byte written once in all: nothing verified by the first run was sent again
        assertThat((long) healthy.bytesWritten.get() + sentBefore).isEqualTo(27L * MIB + 123 + 1000);
    }

    @Test
    void shouldDetectRetryAndReportAnInjectedChecksumMismatch() {
        Trees.sample(tmp.resolve("src"));
        FaultyStorage corrupting = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 1, Integer.MAX_VALUE);
        Progress.Snapshot result = copy(new LocalStorage(tmp.resolve("src")), corrupting, null, TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("dst/copy"))).isEqualTo(Trees.digest(tmp.resolve("src")));
        assertThat(result.checksumMismatches()).isEqualTo(1);
        assertThat(result.retries()).isEqualTo(1);
        assertThat(events).anyMatch(e -> e.startsWith("ChecksumMismatch: chunk") && e.contains("attempt 1 of 3"));
    }

    @Test
    void shouldDetectRetryAndReportAMismatchInAChunkTheKernelCopied() {
        Trees.file(tmp.resolve("src/x"), 7L * MIB, 3);   // two chunks, both large enough for a kernel copy
        FaultyStorage corrupting = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 1, Integer.MAX_VALUE);
        Progress.Snapshot result = copy(new LocalStorage(tmp.resolve("src")), corrupting, null, TransferJournal.open(tmp.resolve("j")));

        assertThat(tmp.resolve("dst/copy/x")).hasSameBinaryContentAs(tmp.resolve("src/x"));
        assertThat(result.checksumMismatches()).isEqualTo(1);
        assertThat(result.retries()).isEqualTo(1);
        assertThat(events).anyMatch(e -> e.startsWith("ChecksumMismatch: chunk") && e.contains("destination holds"));
    }

    @Test
    void shouldDetectRetryAndReportAMismatchAlsoWhenChunksPassThroughABuffer() {
        Trees.sample(tmp.resolve("src"));
        FaultyStorage corrupting = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 1, Integer.MAX_VALUE);
        Progress.Snapshot result = copy(notLocal(tmp.resolve("src")), corrupting, null, TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("dst/copy"))).isEqualTo(Trees.digest(tmp.resolve("src")));
        assertThat(result.checksumMismatches()).isEqualTo(1);
        assertThat(events).anyMatch(e -> e.startsWith("ChecksumMismatch: chunk") && e.contains("attempt 1 of 3"));
    }

    @Test
    void shouldJournalEachChunkWithTheHashOfTheChosenAlgorithm() throws IOException {
        Trees.file(tmp.resolve("src/x"), 12L * MIB, 7);   // 12 MiB: a 5 MiB chunk, another, and 2 MiB
        byte[] second = java.util.Arrays.copyOfRange(Files.readAllBytes(tmp.resolve("src/x")), 5 * MIB, 10 * MIB);
        for (ChecksumAlgorithm algorithm : ChecksumAlgorithm.values()) {
            List<Storage> sources = List.of(new LocalStorage(tmp.resolve("src")), notLocal(tmp.resolve("src")));
            for (int i = 0; i < sources.size(); i++) {
                Storage source = sources.get(i);
                Path journal = tmp.resolve("j-" + algorithm + "-" + i);
                try (TransferJournal j = TransferJournal.open(journal)) {
                    copy(source, new LocalStorage(tmp.resolve("dst-" + algorithm)), null, algorithm, j);
                }
                assertThat(Files.readString(journal)).contains("\t1\t" + algorithm.journalValue(
                        algorithm.hex(java.nio.ByteBuffer.wrap(second))) + "\t");
            }
            assertThat(tmp.resolve("dst-" + algorithm + "/copy/x")).hasSameBinaryContentAs(tmp.resolve("src/x"));
        }
        assertThat(ChecksumAlgorithm.BLAKE3.hex(java.nio.ByteBuffer.wrap(second)))
                .isNotEqualTo(ChecksumAlgorithm.SHA256.hex(java.nio.ByteBuffer.wrap(second)));
    }

    @Test
    void shouldFailNamingTheChunkWhenEveryAttemptIsCorrupted() {
        Trees.file(tmp.resolve("src/x"), 100, 1);
        FaultyStorage corrupting = new FaultyStorage(new LocalStorage(tmp.resolve("dst")), 99, Integer.MAX_VALUE);
        assertThatThrownBy(() -> copy(new LocalStorage(tmp.resolve("src")), corrupting, null, TransferJournal.open(tmp.resolve("j"))))
                .isInstanceOfSatisfying(TransferFailedException.class, e -> assertThat(e.code()).isEqualTo("ChecksumMismatch"))
                .hasMessageContaining("chunk 0 of /copy/x after 3 attempts");
        assertThat(tmp.resolve("dst/copy/x")).doesNotExist();
    }

    @Test
    void shouldSkipFilesAccordingToTheSyncLevel() throws IOException {
        Trees.file(tmp.resolve("src/same"), 100, 1);
        Trees.file(tmp.resolve("src/resized"), 100, 2);
        Trees.file(tmp.resolve("src/older-copy"), 100, 3);
        Trees.file(tmp.resolve("src/altered"), 100, 4);
        LocalStorage src = new LocalStorage(tmp.resolve("src"));
        copy(src, new LocalStorage(tmp.resolve("dst")), null, TransferJournal.open(tmp.resolve("j1")));
        Trees.file(tmp.resolve("dst/copy/resized"), 50, 2);
        Files.setLastModifiedTime(tmp.resolve("dst/copy/older-copy"), FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        Trees.file(tmp.resolve("dst/copy/altered"), 100, 99);
        Files.setLastModifiedTime(tmp.resolve("dst/copy/altered"), Files.getLastModifiedTime(tmp.resolve("src/altered")));

        assertThat(sent(src, SyncLevel.EXISTS, "j2")).isEqualTo(0);
        assertThat(sent(src, SyncLevel.SIZE, "j3")).isEqualTo(1);      // resized
        assertThat(sent(src, SyncLevel.MTIME, "j4")).isEqualTo(1);     // older-copy (resized was fixed by SIZE)
        assertThat(sent(src, SyncLevel.CHECKSUM, "j5")).isEqualTo(1);  // altered: same size and time, other bytes
        assertThat(sent(src, SyncLevel.CHECKSUM, "j6")).isEqualTo(0);
        assertThat(Trees.digest(tmp.resolve("dst/copy"))).isEqualTo(Trees.digest(tmp.resolve("src")));
    }

    @Test
    void shouldFindAlteredContentAtSyncLevelChecksumWithEitherAlgorithm() throws IOException {
        Trees.file(tmp.resolve("src/altered"), 11L * MIB, 4);
        LocalStorage src = new LocalStorage(tmp.resolve("src"));
        copy(src, new LocalStorage(tmp.resolve("dst")), null, TransferJournal.open(tmp.resolve("j1")));
        byte[] bytes = Files.readAllBytes(tmp.resolve("dst/copy/altered"));
        bytes[bytes.length - 3] ^= 1;   // in the last chunk
        FileTime time = Files.getLastModifiedTime(tmp.resolve("src/altered"));
        for (ChecksumAlgorithm algorithm : ChecksumAlgorithm.values()) {
            Files.write(tmp.resolve("dst/copy/altered"), bytes);
            Files.setLastModifiedTime(tmp.resolve("dst/copy/altered"), time);
            Progress.Snapshot s = copy(src, new LocalStorage(tmp.resolve("dst")), SyncLevel.CHECKSUM, algorithm,
                    TransferJournal.open(tmp.resolve("j-" + algorithm)));
            assertThat(s.filesSkipped()).as(algorithm.label()).isZero();
        }
        assertThat(tmp.resolve("dst/copy/altered")).hasSameBinaryContentAs(tmp.resolve("src/altered"));
    }

    private long sent(LocalStorage src, SyncLevel level, String journal) {
        Progress.Snapshot s = copy(src, new LocalStorage(tmp.resolve("dst")), level, TransferJournal.open(tmp.resolve(journal)));
        return s.filesTotal() - s.filesSkipped();
    }

    @Test
    void shouldRefuseADirectoryWhenRecursiveIsFalse() {
        Trees.file(tmp.resolve("src/d/x"), 1, 1);
        assertThatThrownBy(() -> engine.run(new LocalStorage(tmp.resolve("src")), new LocalStorage(tmp.resolve("dst")),
                List.of(new TransferItem(PathNormalizer.normalize("d"), PathNormalizer.normalize("d"), false)), null,
                TransferJournal.open(tmp.resolve("j")), new Progress(), TransferEngine.Listener.NONE, new AtomicBoolean()))
                .hasMessageContaining("is a directory; set recursive");
    }

    @Test
    void shouldNotCopyWhatASymlinkOutsideTheRootHolds() throws IOException {
        Trees.file(tmp.resolve("secret/key"), 10, 1);
        Trees.file(tmp.resolve("src/ok"), 10, 2);
        Files.createSymbolicLink(tmp.resolve("src/leak"), tmp.resolve("secret"));
        copy(new LocalStorage(tmp.resolve("src")), new LocalStorage(tmp.resolve("dst")), null, TransferJournal.open(tmp.resolve("j")));
        assertThat(tmp.resolve("dst/copy/ok")).exists();
        assertThat(tmp.resolve("dst/copy/leak")).doesNotExist();
    }
}
