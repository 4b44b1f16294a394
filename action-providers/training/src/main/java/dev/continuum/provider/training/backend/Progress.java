package dev.continuum.provider.training.backend;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's report of how far it got: one line on its standard output,
 * {@code CONTINUUM_PROGRESS step=<n> [loss=<x>]}. A line on stdout is the one channel every
 * backend can read (a local pipe, Slurm's output file, a pod's log); rank 0 reports.
 */
public record Progress(long step, OptionalDouble loss) {
    public static final String PREFIX = "CONTINUUM_PROGRESS";
    private static final Pattern LINE = Pattern.compile(
            "^" + PREFIX + "\\s+step=(\\d+)(?:\\s+loss=([-+0-9.eEnaNIfity]+))?\\s*$");

    public Progress {
        if (step < 0) {
            throw new IllegalArgumentException("negative step");
        }
        loss = loss == null ? OptionalDouble.empty() : loss;
    }

    public static Progress of(long step, double loss) {
        return new Progress(step, OptionalDouble.of(loss));
    }

    /** The progress in one line of output, or empty for any other line. */
    public static Optional<Progress> parse(String line) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            long step = Long.parseLong(m.group(1));
            OptionalDouble loss = m.group(2) == null ? OptionalDouble.empty()
                    : OptionalDouble.of(Double.parseDouble(m.group(2)));
            return Optional.of(new Progress(step, loss));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The line a job prints (what {@link #parse} reads). */
    public String line() {
        return PREFIX + " step=" + step + (loss.isPresent() ? " loss=" + loss.getAsDouble() : "");
    }
}
