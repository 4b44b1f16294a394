package dev.continuum.provider.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ISO-8601 durations as the Globus API uses them (release_after, maximum_deadline), including
 * years, months and weeks, which {@link Duration#parse} does not accept. A year counts 365 days
 * and a month 30: these values only bound retention, so calendar precision does not matter.
 */
final class IsoDurations {

    private static final Pattern ISO = Pattern.compile(
            "P(?!$)(?:(\\d+(?:\\.\\d+)?)Y)?(?:(\\d+(?:\\.\\d+)?)M)?(?:(\\d+(?:\\.\\d+)?)W)?(?:(\\d+(?:\\.\\d+)?)D)?"
                    + "(?:T(?=\\d)(?:(\\d+(?:\\.\\d+)?)H)?(?:(\\d+(?:\\.\\d+)?)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?");
    private static final double[] SECONDS_PER_UNIT = {365 * 86400d, 30 * 86400d, 7 * 86400d, 86400d, 3600d, 60d, 1d};

    private IsoDurations() {}

    static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = ISO.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        double seconds = 0;
        for (int i = 0; i < SECONDS_PER_UNIT.length; i++) {
            String group = m.group(i + 1);
            if (group != null) {
                seconds += Double.parseDouble(group) * SECONDS_PER_UNIT[i];
            }
        }
        return Optional.of(Duration.ofMillis((long) Math.min(Long.MAX_VALUE / 2d, seconds * 1000)));
    }
}
