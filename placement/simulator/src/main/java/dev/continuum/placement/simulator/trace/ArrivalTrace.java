package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.simulator.ScalingSimulator.Request;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Inference arrivals for the scaling simulation, from two kinds of trace: an inference request log (Azure's LLM
 * inference trace, {@code TIMESTAMP,ContextTokens,GeneratedTokens}: each request's work from its tokens) and the
 * submission times of a job trace (Alibaba openb, Helios, Philly, continuum CSV: the daily cycle of people
 * submitting work), replayed as requests of an exponential service time. Both can be time-scaled (a day into an
 * hour is 24) and rate-scaled: below 1 by keeping an evenly spread share of the arrivals, above 1 by overlaying
 * the trace on itself shifted by whole periods (days), so the daily shape stays and every copy is real.
 */
public final class ArrivalTrace {
    private static final DateTimeFormatter AZURE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss").optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd().toFormatter();

    /** Milliseconds of one worker per request: a fixed part, per prompt token (prefill), per generated token. */
    public record TokenCost(double fixedMillis, double perContextTokenMillis, double perGeneratedTokenMillis) {
        /** 50 ms + 0.2 ms per prompt token + 20 ms per generated token (about 50 tokens/s decoding). */
        public static TokenCost defaults() {
            return new TokenCost(50, 0.2, 20);
        }

        long millis(long context, long generated) {
            return Math.max(1, Math.round(fixedMillis + perContextTokenMillis * context
                    + perGeneratedTokenMillis * generated));
        }
    }

    private ArrivalTrace() {
    }

    /** Azure LLM inference CSV: times relative to the first request, work from the tokens. */
    public static List<Request> azure(Path path, TokenCost cost) {
        List<Request> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                throw new TraceFormatException(path.toString(), 1, 1, "empty file");
            }
            Map<String, Integer> columns = new HashMap<>();
            String[] names = header.strip().split(",");
            for (int i = 0; i < names.length; i++) {
                columns.put(names[i].strip(), i);
            }
            for (String c : List.of("TIMESTAMP", "ContextTokens", "GeneratedTokens")) {
                if (!columns.containsKey(c)) {
                    throw new TraceFormatException(path.toString(), 1, 1, "missing column '" + c
                            + "' (an Azure LLM inference trace has TIMESTAMP,ContextTokens,GeneratedTokens)");
                }
            }
            String line;
            long number = 1;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                CsvRecord r = CsvRecord.parse(path.toString(), number, line, columns);
                long at;
                try {
                    at = LocalDateTime.parse(r.text("TIMESTAMP"), AZURE_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
                } catch (DateTimeParseException e) {
                    throw r.error("TIMESTAMP", "column 'TIMESTAMP' must be a time yyyy-MM-dd HH:mm:ss.fffffff, was '"
                            + r.text("TIMESTAMP") + "'");
                }
                out.add(new Request(at, cost.millis(r.longValue("ContextTokens"), r.longValue("GeneratedTokens"))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        out.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        return rebase(out);
    }

    /** A job trace's submission times as requests of exponential service (mean {@code serviceMillis}, seeded). */
    public static List<Request> submissions(TraceReader jobs, double serviceMillis, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Request> out = new ArrayList<>();
        try (jobs) {
            while (jobs.hasNext()) {
                long at = jobs.next().arrival() * 1000;
                out.add(new Request(at, Math.max(1, Math.round(-serviceMillis * Math.log(1 - random.nextDouble())))));
            }
        }
        out.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        return rebase(out);
    }

    /**
     * Time-scales (times divided by {@code timeScale}) and rate-scales the arrivals; above 1, copies shifted by whole
     * {@code periodMillis} (before time-scaling) are overlaid, wrapping round the trace's span in whole periods.
     */
    public static List<Request> scale(List<Request> requests, double timeScale, double rateScale, long periodMillis) {
        if (!(timeScale > 0) || !(rateScale > 0)) {
            throw new IllegalArgumentException("--time-scale and --rate-scale must be positive, were "
                    + timeScale + ", " + rateScale);
        }
        if (requests.isEmpty()) {
            return requests;
        }
        int copies = (int) Math.ceil(rateScale);
        long span = requests.getLast().atMillis() + 1;
        long periods = Math.ceilDiv(span, periodMillis);
        if (copies > 1 && periods < copies) {
            throw new IllegalArgumentException("--rate-scale " + rateScale + " overlays " + copies
                    + " copies shifted by whole periods, but the trace spans only " + periods
                    + " period(s); use a rate scale of at most " + periods + " (or below 1 to thin it)");
        }
        long wrap = periods * periodMillis;
        double keep = rateScale / copies;
        List<Request> out = new ArrayList<>();
        long index = 0;
        for (int c = 0; c < copies; c++) {
            for (Request r : requests) {
                // an evenly spread share (golden-ratio sequence), the same on every run
                double u = (index++ * 0.6180339887498949) % 1.0;
                if (u < keep) {
                    long at = (r.atMillis() + c * periodMillis) % wrap;
                    out.add(new Request(Math.round(at / timeScale), r.serviceMillis()));
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        return out;
    }

    private static List<Request> rebase(List<Request> sorted) {
        if (sorted.isEmpty()) {
            return sorted;
        }
        long origin = sorted.getFirst().atMillis();
        return sorted.stream().map(r -> new Request(r.atMillis() - origin, r.serviceMillis())).toList();
    }
}
