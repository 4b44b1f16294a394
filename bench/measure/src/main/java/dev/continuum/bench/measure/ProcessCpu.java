package dev.continuum.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * CPU time a process has used, from Linux /proc. On a shared machine wall-clock rates swing with
 * other load; CPU spent per run by the engine does not, so it is the steadier number to compare changes by.
 */
public final class ProcessCpu {

    /** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream kernel. */
    private static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {}

    /** User + system CPU time of the process so far; empty when /proc is not there or the pid is gone. */
    public static Optional<Duration> used(long pid) {
        try {
            return Optional.of(parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses /proc/[pid]/stat: fields 14 and 15 (utime, stime) counted after the parenthesised name. */
    static Duration parse(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }
}
