package dev.continuum.provider.training.backend.slurm;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads GPU counts and models out of Slurm's gres and TRES strings ({@code gpu:4}, {@code gpu:a100:2(S:0)}, {@code gres/gpu=2}). */
final class SlurmGres {
    private static final Pattern GRES = Pattern.compile("gpu(?::([A-Za-z][\\w.-]*))?:(\\d+)");
    private static final Pattern TRES = Pattern.compile("gres/gpu(?::[^=,]+)?=(\\d+)");

    private SlurmGres() {
    }

    static int gpuCount(String gres) {
        if (gres == null) {
            return 0;
        }
        Matcher m = GRES.matcher(gres);
        int total = 0;
        while (m.find()) {
            total += Integer.parseInt(m.group(2));
        }
        return total;
    }

    static Optional<String> gpuModel(String gres) {
        if (gres == null) {
            return Optional.empty();
        }
        Matcher m = GRES.matcher(gres);
        return m.find() ? Optional.ofNullable(m.group(1)) : Optional.empty();
    }

    static int tresGpus(String tres) {
        if (tres == null) {
            return 0;
        }
        Matcher m = TRES.matcher(tres);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
