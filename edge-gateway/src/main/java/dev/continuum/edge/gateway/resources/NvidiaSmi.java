package dev.continuum.edge.gateway.resources;

import dev.continuum.edge.protocol.GpuInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads GPUs from the NVIDIA management interface (NVML) through its command-line front end ({@code nvidia-smi}),
 * which ships with every NVIDIA driver — no JNI binding to keep in step with driver versions (ADR 0037). One
 * {@link #read()} runs the command once, with a time limit; {@link GpuPoller} runs it on an interval, off the
 * gateway's other threads.
 */
public final class NvidiaSmi {

    /** The fields asked for, in this order. */
    static final String QUERY = "index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw";
    private static final int FIELDS = 7;

    /** What one run of the command found: the GPUs, or why there are none ({@code problem}, never null then). */
    public record Reading(List<GpuInfo> gpus, String problem) {

        public static Reading found(List<GpuInfo> gpus) {
            return new Reading(List.copyOf(gpus), null);
        }

        public static Reading none(String problem) {
            return new Reading(List.of(), problem);
        }

        public boolean ok() {
            return problem == null;
        }
    }

    private final String executable;
    private final Duration timeout;

    public NvidiaSmi(String executable, Duration timeout) {
        this.executable = executable;
        this.timeout = timeout;
    }

    public static NvidiaSmi onPath() {
        return new NvidiaSmi("nvidia-smi", Duration.ofSeconds(5));
    }

    /** The command line run, for messages. */
    public List<String> command() {
        return List.of(executable, "--query-gpu=" + QUERY, "--format=csv,noheader,nounits");
    }

    /** Runs the command once; blocks up to the timeout. A missing, failing or silent tool is a reading of none. */
    public Reading read() {
        Process p;
        try {
            p = new ProcessBuilder(command()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return Reading.none(executable + " cannot be run (" + String.valueOf(e.getMessage()).strip() + ")");
        }
        try {
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return Reading.none(executable + " gave no answer within " + timeout.toMillis() + " ms");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                return Reading.none(executable + " exited with " + p.exitValue() + firstLine(out));
            }
            List<GpuInfo> gpus = parse(out);
            return gpus.isEmpty() ? Reading.none(executable + " listed no GPU" + firstLine(out)) : Reading.found(gpus);
        } catch (IOException e) {
            return Reading.none(executable + " output unreadable (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return Reading.none("interrupted while waiting for " + executable);
        }
    }

    private static String firstLine(String out) {
        String line = out.strip().lines().findFirst().orElse("");
        return line.isEmpty() ? "" : ": " + (line.length() > 200 ? line.substring(0, 200) + "…" : line);
    }

    /**
     * Parses {@code nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw
     * --format=csv,noheader,nounits}, one GPU a line. A field the board does not report ({@code [N/A]},
     * {@code [Not Supported]}, …) reads as 0 for utilisation and memory and as absent (null) for temperature and
     * power; a line that is not a GPU (a warning) is skipped. A name holding commas is put back together.
     */
    public static List<GpuInfo> parse(String csv) {
        List<GpuInfo> gpus = new ArrayList<>();
        for (String line : csv.split("\\R")) {
            String[] f = line.split(",", -1);
            if (f.length < FIELDS) {
                continue;
            }
            int extra = f.length - FIELDS; // commas inside the name
            String name = String.join(",", Arrays.copyOfRange(f, 1, 2 + extra)).trim();
            try {
                int index = Integer.parseInt(f[0].trim());
                Double utilization = number(f[2 + extra]);
                Double used = number(f[3 + extra]);
                Double total = number(f[4 + extra]);
                Double temperature = number(f[5 + extra]);
                Double power = number(f[6 + extra]);
                gpus.add(new GpuInfo(index, name, round(total), round(used), (int) round(utilization),
                        temperature == null ? null : (int) round(temperature), power));
            } catch (NumberFormatException e) {
                // a line we do not understand (a warning, a new format): skip it rather than guess
            }
        }
        return gpus;
    }

    /** Null when the board does not report the field: nvidia-smi writes "[N/A]", "[Not Supported]", "[Unknown Error]". */
    private static Double number(String s) {
        String t = s.trim();
        if (t.startsWith("[") || t.equalsIgnoreCase("N/A")) {
            return null;
        }
        return Double.parseDouble(t);
    }

    private static long round(Double d) {
        return d == null ? 0 : Math.round(d);
    }
}
