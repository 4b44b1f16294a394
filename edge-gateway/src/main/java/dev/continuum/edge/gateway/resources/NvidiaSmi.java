package dev.continuum.edge.gateway.resources;

import dev.continuum.edge.protocol.GpuInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads GPUs from the NVIDIA management interface through its command-line front end
 * ({@code nvidia-smi}), which ships with every NVIDIA driver — no JNI binding to keep in step
 * with driver versions. No binary, or a failing one, means no GPUs.
 */
public final class NvidiaSmi {

    static final String QUERY = "index,name,memory.total,memory.used,utilization.gpu";

    private final String executable;

    public NvidiaSmi(String executable) {
        this.executable = executable;
    }

    public static NvidiaSmi onPath() {
        return new NvidiaSmi("nvidia-smi");
    }

    public List<GpuInfo> gpus() {
        try {
            Process p = new ProcessBuilder(executable, "--query-gpu=" + QUERY, "--format=csv,noheader,nounits")
                    .redirectErrorStream(true).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.exitValue() == 0 ? parse(out) : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** Parses {@code nvidia-smi --query-gpu=index,name,memory.total,memory.used,utilization.gpu --format=csv,noheader,nounits}. */
    public static List<GpuInfo> parse(String csv) {
        List<GpuInfo> gpus = new ArrayList<>();
        for (String line : csv.split("\\R")) {
            String[] f = line.split(",");
            if (f.length != 5) {
                continue;
            }
            try {
                gpus.add(new GpuInfo(Integer.parseInt(f[0].trim()), f[1].trim(), number(f[2]), number(f[3]),
                        (int) number(f[4])));
            } catch (NumberFormatException e) {
                // a line we do not understand (a warning, a new format): skip it rather than guess
            }
        }
        return gpus;
    }

    /** "[N/A]" (e.g. utilization on some boards) reads as 0. */
    private static long number(String s) {
        String t = s.trim();
        return t.startsWith("[") ? 0 : Math.round(Double.parseDouble(t));
    }
}
