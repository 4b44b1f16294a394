package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.Set;

/**
 * A generated job stream shaped like Helios' Venus cluster (SC'21 summary: GPU-job run time mean
 * 13,040 s, median 204 s, so log-normal with sigma 2.88; median 1 GPU, mean about 5): Poisson
 * arrivals at the rate that offers {@code load} x the cluster's GPUs, deterministic per seed,
 * generated on the fly (no memory per job).
 */
public final class SyntheticTrace implements TraceReader {
    private static final int[] GPUS = {1, 2, 4, 8, 16, 32, 64};
    private static final double[] GPU_SHARE = {0.55, 0.10, 0.10, 0.15, 0.06, 0.03, 0.01};
    private static final double MEDIAN = 204;
    private static final double SIGMA = 2.88;
    private static final double MAX_DURATION = 14 * 86_400;
    /** Spread of users' typical durations; per-job spread is what is left of SIGMA (users repeat their jobs). */
    private static final double USER_SIGMA = 1.8;
    private static final double JOB_SIGMA = Math.sqrt(SIGMA * SIGMA - USER_SIGMA * USER_SIGMA);

    private final long jobs;
    private final SplittableRandom random;
    private final double meanGap;
    private final int users;
    private final String[] partitions;
    private final int maxGpus;
    private final double[] userMu;
    private long produced;
    private double clock;

    /**
     * @param totalGpus  GPUs of the target cluster (sets the arrival rate)
     * @param maxGpus    largest job (jobs above it are drawn again)
     * @param partitions partition names spread over users, or none
     */
    public SyntheticTrace(long jobs, long seed, double load, int totalGpus, int maxGpus, int users, String... partitions) {
        this.jobs = jobs;
        this.random = new SplittableRandom(seed);
        this.users = users;
        this.partitions = partitions;
        this.maxGpus = maxGpus;
        SplittableRandom userRandom = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.userMu = new double[users];
        for (int u = 0; u < users; u++) {
            userMu[u] = Math.log(MEDIAN) + USER_SIGMA * gaussian(userRandom);
        }
        double meanGpus = 0;
        double share = 0;
        for (int i = 0; i < GPUS.length; i++) {
            if (GPUS[i] <= maxGpus) {
                meanGpus += GPUS[i] * GPU_SHARE[i];
                share += GPU_SHARE[i];
            }
        }
        meanGpus /= share;
        double meanDuration = cappedLogNormalMean(Math.log(MEDIAN), SIGMA, MAX_DURATION);
        double gpuSecondsPerJob = meanGpus * meanDuration;
        this.meanGap = gpuSecondsPerJob / (load * totalGpus);
    }

    /** E[min(X, cap)] for log-normal X: the cap matters a lot with sigma this large. */
    static double cappedLogNormalMean(double mu, double sigma, double cap) {
        double lc = Math.log(cap);
        return Math.exp(mu + sigma * sigma / 2) * phi((lc - mu - sigma * sigma) / sigma)
                + cap * (1 - phi((lc - mu) / sigma));
    }

    private static double phi(double x) {
        // Abramowitz-Stegun 7.1.26 erf approximation (error < 1.5e-7)
        double z = Math.abs(x) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * z);
        double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
                * t * Math.exp(-z * z);
        return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
    }

    @Override
    public boolean hasNext() {
        return produced < jobs;
    }

    @Override
    public Job next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        clock += -meanGap * Math.log(1 - random.nextDouble());
        int gpus;
        do {
            gpus = drawGpus();
        } while (gpus > maxGpus);
        int user = random.nextInt(users);
        double d = Math.min(MAX_DURATION, Math.exp(userMu[user] + JOB_SIGMA * gaussian(random)));
        long duration = Math.max(1, Math.round(d));
        String partition = partitions.length == 0 ? "" : partitions[user % partitions.length];
        Demand demand = new Demand(gpus, 1000, Set.of(), gpus * 4_000L, gpus * 32_768L);
        String id = "job-" + produced++;
        return new Job(id, "user" + user, partition, (long) clock, demand, duration, 0, true, true, gpus, gpus, 0);
    }

    private int drawGpus() {
        double u = random.nextDouble();
        for (int i = 0; i < GPUS.length; i++) {
            u -= GPU_SHARE[i];
            if (u < 0) {
                return GPUS[i];
            }
        }
        return 1;
    }

    private static double gaussian(SplittableRandom r) {
        // Box-Muller: SplittableRandom has no nextGaussian on older releases
        double u1 = 1 - r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    @Override public long skippedLines() { return 0; }
    @Override public void close() { }

    /** Writes the stream as a Helios {@code cluster_log.csv}. */
    public void writeHelios(Path out) {
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write("job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n");
            while (hasNext()) {
                Job j = next();
                int g = j.demand().gpus();
                w.write(j.id() + "," + j.user() + "," + (j.partition().isEmpty() ? "vc0" : j.partition()) + "," + g + ","
                        + g * 4 + "," + Math.max(1, (g + 7) / 8) + ",COMPLETED," + j.arrival() + ",,," + j.duration() + ",\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the stream in the simulator's own CSV format. */
    public void writeContinuum(Path out) {
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write("id,arrival,duration,gpus,gpu_milli,cpu_milli,memory_mib,user,partition\n");
            while (hasNext()) {
                Job j = next();
                Demand d = j.demand();
                w.write(j.id() + "," + j.arrival() + "," + j.duration() + "," + d.gpus() + "," + d.gpuMilli() + ","
                        + d.cpuMilli() + "," + d.memoryMib() + "," + j.user() + "," + j.partition() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
