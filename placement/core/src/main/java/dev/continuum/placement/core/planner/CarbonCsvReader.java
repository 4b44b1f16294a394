package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.policy.CarbonSignal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a carbon-intensity or energy-price series: CSV with the header {@code site,time,value}, one row per site and
 * time from which the value holds; {@code time} is an ISO-8601 instant or epoch seconds, {@code site} a site name or
 * {@code *} for every site. The planner (online, {@code continuum.placement.carbon}) and {@code simulate --carbon}
 * read the same file.
 */
public final class CarbonCsvReader {

    private CarbonCsvReader() {}

    public static CarbonSignal read(Path file) {
        try {
            return parse(Files.readAllLines(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the carbon series " + file, e);
        }
    }

    static CarbonSignal parse(List<String> lines, String source) {
        if (lines.isEmpty() || !lines.getFirst().replace(" ", "").equalsIgnoreCase("site,time,value")) {
            throw new IllegalArgumentException(source + ": a carbon series starts with the header site,time,value");
        }
        Map<String, List<CarbonSignal.Point>> bySite = new TreeMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != 3 || f[0].isBlank()) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": expected site,time,value, was " + line);
            }
            double value;
            try {
                value = Double.parseDouble(f[2].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": value is not a number: " + f[2]);
            }
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": value must be a finite number ≥ 0, was " + f[2]);
            }
            bySite.computeIfAbsent(f[0].strip(), k -> new ArrayList<>())
                    .add(new CarbonSignal.Point(seconds(f[1].strip(), source, i + 1), value));
        }
        return new CarbonSignal(bySite);
    }

    private static long seconds(String time, String source, int line) {
        try {
            return time.chars().allMatch(Character::isDigit) ? Long.parseLong(time) : Instant.parse(time).getEpochSecond();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(source + " line " + line + ": time must be ISO-8601 or epoch seconds, was " + time);
        }
    }
}
