package dev.continuum.provider.transfer.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.engine.Blake3;
import dev.continuum.provider.transfer.engine.ChecksumAlgorithm;
import dev.continuum.provider.transfer.engine.Progress;
import dev.continuum.provider.transfer.engine.TransferEngine;
import dev.continuum.provider.transfer.engine.TransferItem;
import dev.continuum.provider.transfer.engine.TransferJournal;
import dev.continuum.provider.transfer.engine.TransferOptions;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.bouncycastle.crypto.digests.Blake3Digest;

/**
 * Prints numbers for docs/benchmarks.md ("Transfer"); never asserts. Not a test (no JUnit): run it from
 * the module after {@code mvn -o -pl action-providers/transfer package} (test classes and the runner jar),
 * under {@code bench/scripts/quiet.sh}:
 * <pre>
 * CP="target/test-classes:$(ls target/*-runner.jar):$HOME/.m2/repository/org/bouncycastle/bcprov-jdk18on/1.78.1/bcprov-jdk18on-1.78.1.jar"
 * java --add-modules jdk.incubator.vector -cp "$CP" dev.continuum.provider.transfer.bench.TransferThroughputProbe hash
 * java --add-modules jdk.incubator.vector -cp "$CP" dev.continuum.provider.transfer.bench.TransferThroughputProbe engine SRC_DIR DST_DIR ROUNDS
 * </pre>
 * {@code hash}: MB/s of one thread over 8 MiB buffers. {@code engine}: the transfer engine in this process
 * (4 workers, 8 MiB chunks, so the JIT is warm after the first round) copying SRC_DIR into DST_DIR with
 * BLAKE3, SHA-256 and without verification, each followed by {@code cp -r} of the same data: wall and CPU
 * seconds, back to back.
 */
public final class TransferThroughputProbe {

    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private TransferThroughputProbe() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("engine")) {
            engine(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
        } else {
            hash();
        }
    }

    private static void hash() {
        byte[] data = new byte[8 << 20];
        new Random(1).nextBytes(data);
        ByteBuffer buffer = ByteBuffer.wrap(data);
        System.out.println("# one thread, 8 MiB inputs, MB/s; BLAKE3 runs on " + Blake3.implementation());
        for (int round = 0; round < 5; round++) {
            double blake3 = rate(data.length, 64, () -> Blake3.hash(buffer));
            double sha256 = rate(data.length, 32, () -> ChecksumAlgorithm.SHA256.hex(buffer));
            double bouncy = rate(data.length, 4, () -> {
                Blake3Digest d = new Blake3Digest(256);
                d.update(data, 0, data.length);
                d.doFinal(new byte[32], 0);
            });
            System.out.printf("round %d: BLAKE3 %,.0f   SHA-256 (JDK) %,.0f   BLAKE3 (Bouncy Castle) %,.0f%n",
                    round + 1, blake3, sha256, bouncy);
        }
    }

    private static double rate(int bytes, int times, Runnable work) {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            work.run();
        }
        return (double) bytes * times / (System.nanoTime() - t0) * 1e3;
    }

    private static void engine(Path source, Path target, int rounds) throws Exception {
        TransferEngine engine = new TransferEngine(TransferOptions.defaults());
        System.out.println("# engine in process, " + source + " -> " + target + ", BLAKE3 on " + Blake3.implementation());
        for (int round = 1; round <= rounds; round++) {
            for (String mode : new String[] {"blake3", "sha256", "off"}) {
                clear(target);
                long c0 = OS.getProcessCpuTime();
                long t0 = System.nanoTime();
                engine.run(new LocalStorage(source), new LocalStorage(target),
                        List.of(new TransferItem(PathNormalizer.normalize("/"), PathNormalizer.normalize("/copy"), true)),
                        null, !mode.equals("off"), mode.equals("sha256") ? ChecksumAlgorithm.SHA256 : ChecksumAlgorithm.BLAKE3,
                        TransferJournal.open(Files.createTempDirectory("probe").resolve("journal")), new Progress(),
                        TransferEngine.Listener.NONE, new AtomicBoolean());
                double wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (OS.getProcessCpuTime() - c0) / 1e9;
                clear(target);
                long t1 = System.nanoTime();
                Process cp = new ProcessBuilder("/usr/bin/time", "-f", "%U %S", "cp", "-r", source.toString(),
                        target.resolve("cp").toString()).redirectErrorStream(true).start();
                String[] times = new String(cp.getInputStream().readAllBytes()).trim().split("\\s+");
                cp.waitFor();
                double cpWall = (System.nanoTime() - t1) / 1e9;
                double cpCpu = Double.parseDouble(times[times.length - 2]) + Double.parseDouble(times[times.length - 1]);
                System.out.printf("round %d %-6s %6.2f s (cpu %5.2f s)   cp -r %6.2f s (cpu %5.2f s)   %3.0f %% of cp%n",
                        round, mode, wall, cpu, cpWall, cpCpu, 100 * cpWall / wall);
            }
        }
        clear(target);
    }

    private static void clear(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        new ProcessBuilder("sync").start().waitFor();   // the previous copy's writeback must not land in the next one
    }
}
