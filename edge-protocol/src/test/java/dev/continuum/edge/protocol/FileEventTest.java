package dev.continuum.edge.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FileEventTest {

    private static final FileEvent.WatchedFile A = new FileEvent.WatchedFile("incoming/a.tif", 10, 1000, "aa");
    private static final FileEvent.WatchedFile B = new FileEvent.WatchedFile("incoming/b.tif", 20, 2000, "bb");

    @Test
    void oneFileIsKnownByPathSizeMtimeAndContentHash() {
        FileEvent event = FileEvent.of("gw-1", "w1", List.of(A), 5);

        assertThat(event.eventId()).isEqualTo("incoming/a.tif:10:1000:sha256:aa");
        assertThat(FileEvent.of("gw-1", "w1", List.of(new FileEvent.WatchedFile("incoming/a.tif", 10, 1001, "aa")), 5)
                .eventId()).isNotEqualTo(event.eventId());
    }

    @Test
    void theSameBatchAlwaysGetsTheSameIdAndAnotherBatchAnother() {
        String id = FileEvent.of("gw-1", "w1", List.of(A, B), 5).eventId();

        assertThat(FileEvent.of("gw-1", "w1", List.of(A, B), 99).eventId()).isEqualTo(id).startsWith("batch:");
        assertThat(FileEvent.of("gw-1", "w1", List.of(B, A), 5).eventId()).isNotEqualTo(id);
    }

    @Test
    void eventsAndWatchesCrossTheWireUnchanged() {
        FileEvent event = FileEvent.of("gw-1", "w1", List.of(A, B), 5);
        FileWatch.Watches watches = new FileWatch.Watches(List.of(
                new FileWatch("w1", "incoming", "*.tif", List.of("*.part"), 2, null, 0, 0)));

        assertThat(Wire.decode(Wire.encode(event), FileEvent.class)).isEqualTo(event);
        assertThat(Wire.decode(Wire.encode(watches), FileWatch.Watches.class)).isEqualTo(watches);
        assertThat(new String(Wire.encode(event))).contains("\"watch_id\":\"w1\"", "\"mtime_ms\":1000");
    }
}
