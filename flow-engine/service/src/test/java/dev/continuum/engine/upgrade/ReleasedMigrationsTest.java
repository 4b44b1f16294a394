package dev.continuum.engine.upgrade;

import dev.continuum.engine.support.PreviousRelease;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Migrations are forward-only (docs/operations.md "Upgrading"): every migration of the previous release
 * ({@code deploy/upgrade/previous-release}) is still here byte for byte, and every new one is numbered after the
 * release's last. An edited released migration stops every engine at start on a database that already ran it
 * (Flyway's checksum check); a new one numbered below the last applied one is refused as out of order.
 */
class ReleasedMigrationsTest {

    private static final Pattern VERSIONED = Pattern.compile("V([0-9_.]+?)__.*");
    private static final Comparator<String> BY_VERSION = Comparator.comparing(ReleasedMigrationsTest::version,
            (a, b) -> Arrays.compare(a, b));

    @Test
    void shouldKeepEveryMigrationOfThePreviousReleaseByteForByteWhenTheEngineChanged() throws IOException {
        PreviousRelease previous = PreviousRelease.read();
        assumeTrue(previous.hasHistory(), "needs the git history to read the previous release's migrations (a source archive has none)");
        Map<String, byte[]> released = new TreeMap<>();
        for (String name : previous.list(PreviousRelease.MIGRATIONS)) {
            released.put(name, previous.read(PreviousRelease.MIGRATIONS + "/" + name));
        }

        List<String> problems = problems(released, today(previous.repository().resolve(PreviousRelease.MIGRATIONS)), previous.commit());

        assertThat(released).as("the previous release's migrations").isNotEmpty();
        assertThat(problems).as("migrations against the previous release %s", previous.commit()).isEmpty();
    }

    @Test
    void shouldNameTheFileWhenAReleasedMigrationIsEditedRemovedOrANewOneNumberedBeforeTheLast() {
        Map<String, byte[]> released = Map.of("V1__a.sql", bytes("CREATE TABLE a (x INT);"), "V2__b.sql", bytes("CREATE TABLE b (y INT);"),
                "V3__c.sql", bytes("CREATE TABLE c (z INT);"));
        Map<String, byte[]> today = Map.of("V1__a.sql", bytes("CREATE TABLE a (x INT);"), "V2__b.sql", bytes("CREATE TABLE b (y BIGINT);"),
                "V4__d.sql", bytes("ALTER TABLE a ADD COLUMN w INT;"), "V2_1__e.sql", bytes("SELECT 1;"));

        List<String> problems = problems(released, today, "abc");

        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("V2__b.sql differs from the previous release");
        assertThat(problems.get(1)).startsWith("V3__c.sql of the previous release is gone");
        assertThat(problems.get(2)).startsWith("V2_1__e.sql is new but not numbered after the previous release's last, V3");
    }

    /** Everything wrong with today's migrations against the released ones, one line per file; empty when forward-only. */
    static List<String> problems(Map<String, byte[]> released, Map<String, byte[]> today, String commit) {
        List<String> problems = new ArrayList<>();
        new TreeMap<>(released).forEach((name, bytes) -> {
            if (!today.containsKey(name)) {
                problems.add(name + " of the previous release is gone: a released migration is never deleted or renamed");
            } else if (!Arrays.equals(bytes, today.get(name))) {
                problems.add(name + " differs from the previous release (" + commit + "): a released migration is never"
                        + " edited (engines on an upgraded database refuse to start on its new checksum); add a new one instead");
            }
        });
        released.keySet().stream().max(BY_VERSION).ifPresent(last -> new TreeMap<>(today).keySet().stream()
                .filter(name -> !released.containsKey(name) && BY_VERSION.compare(name, last) <= 0)
                .forEach(name -> problems.add(name + " is new but not numbered after the previous release's last, "
                        + last.substring(0, last.indexOf("__")) + " (Flyway refuses it on a database that ran that one)")));
        return problems;
    }

    /** A migration's version as Flyway orders it, part by part (e.g. {@code V2_10__x.sql} → [2, 10], after [2, 9]). */
    private static int[] version(String name) {
        Matcher matcher = VERSIONED.matcher(name);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a versioned migration: " + name);
        }
        return Arrays.stream(matcher.group(1).split("[_.]")).mapToInt(Integer::parseInt).toArray();
    }

    private static Map<String, byte[]> today(Path directory) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(directory)) {
            for (Path file : list.toList()) {
                files.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
