package dev.continuum.placement.simulator.cli;

import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.simulator.ContinuumSimulator;
import dev.continuum.placement.simulator.ContinuumSimulator.Arrival;
import dev.continuum.placement.simulator.ContinuumSimulator.SiteSpec;
import dev.continuum.placement.simulator.trace.TraceFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The inference jobs of {@code simulate --topology}: a CSV file ({@code id,at_ms,model,endpoint,bytes,slo_ms},
 * header required, columns in any order) or a generated Poisson stream over the endpoints of the edge sites.
 * A bad value stops the read at {@code file:line:column}, as the cluster traces do.
 */
public final class InferenceWorkload {
    static final List<String> COLUMNS = List.of("id", "at_ms", "model", "endpoint", "bytes", "slo_ms");

    private InferenceWorkload() {
    }

    public static List<Arrival> read(Path file, ContinuumSimulator.Topology topology) throws IOException {
        String name = file.getFileName().toString();
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            throw new TraceFormatException(name, 1, 1, "empty file; the header is " + String.join(",", COLUMNS));
        }
        String[] header = lines.getFirst().trim().split(",", -1);
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            col.put(header[i].trim(), i);
        }
        for (String c : COLUMNS) {
            if (!col.containsKey(c)) {
                throw new TraceFormatException(name, 1, 1, "no column '" + c + "'; the header needs "
                        + String.join(",", COLUMNS));
            }
        }
        Set<String> models = models(topology);
        List<Arrival> out = new ArrayList<>();
        long last = Long.MIN_VALUE;
        for (int n = 1; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            Field at = new Field(name, n + 1, f, header);
            String id = at.text(col.get("id"));
            long when = at.number(col.get("at_ms"), 0);
            if (when < last) {
                throw at.problem(col.get("at_ms"), "must not go back in time: " + when + " after " + last);
            }
            last = when;
            String model = at.text(col.get("model"));
            if (!models.contains(model)) {
                throw at.problem(col.get("model"), "no site runs model '" + model + "'; the topology's models are " + models);
            }
            String endpoint = at.text(col.get("endpoint"));
            if (!topology.siteByEndpoint().containsKey(endpoint)) {
                throw at.problem(col.get("endpoint"), "unknown endpoint '" + endpoint + "'; the topology's endpoints are "
                        + topology.siteByEndpoint().keySet());
            }
            out.add(new Arrival(id, when, model, endpoint, at.number(col.get("bytes"), 0),
                    at.number(col.get("slo_ms"), 0)));
        }
        return out;
    }

    /**
     * {@code jobs} arrivals, Poisson at {@code perSecond}, each input of {@code minBytes}–{@code maxBytes} at one of
     * the edge sites' endpoints (uniformly), running {@code model} within {@code sloMillis}; the same seed gives the
     * same jobs.
     */
    public static List<Arrival> synthetic(ContinuumSimulator.Topology topology, int jobs, double perSecond,
                                          String model, long minBytes, long maxBytes, long sloMillis, long seed) {
        List<String> endpoints = new ArrayList<>();
        topology.siteByEndpoint().forEach((endpoint, site) -> {
            if (topology.sites().stream().anyMatch(s -> s.name().equals(site) && s.kind() == Site.Kind.EDGE)) {
                endpoints.add(endpoint);
            }
        });
        endpoints.sort(null); // the map's own order is not the file's: sorted, the same seed gives the same jobs
        Random random = new Random(seed);
        List<Arrival> out = new ArrayList<>();
        double t = 0;
        for (int i = 0; i < jobs; i++) {
            t += -Math.log(1 - random.nextDouble()) / perSecond * 1000;
            String endpoint = endpoints.get(random.nextInt(endpoints.size()));
            long bytes = minBytes + (maxBytes > minBytes ? (long) (random.nextDouble() * (maxBytes - minBytes)) : 0);
            out.add(new Arrival("job-" + i, Math.round(t), model, endpoint, bytes, sloMillis));
        }
        return out;
    }

    static Set<String> models(ContinuumSimulator.Topology topology) {
        Set<String> models = new LinkedHashSet<>();
        for (SiteSpec s : topology.sites()) {
            models.addAll(s.computeMillis().keySet());
        }
        return models;
    }

    /** One line's fields, located for errors. */
    private record Field(String file, long line, String[] values, String[] header) {
        String text(int i) {
            String v = i < values.length ? values[i].trim() : "";
            if (v.isEmpty()) {
                throw problem(i, "column '" + header[i].trim() + "' is empty");
            }
            return v;
        }

        long number(int i, long min) {
            String v = text(i);
            try {
                long n = Long.parseLong(v);
                if (n < min) {
                    throw problem(i, "column '" + header[i].trim() + "' must be ≥ " + min + ", was " + n);
                }
                return n;
            } catch (NumberFormatException e) {
                throw problem(i, "column '" + header[i].trim() + "' must be a whole number, was '" + v + "'");
            }
        }

        TraceFormatException problem(int i, String why) {
            int column = 1;
            for (int k = 0; k < i && k < values.length; k++) {
                column += values[k].length() + 1;
            }
            return new TraceFormatException(file, line, column, why);
        }
    }

    static String describe(List<Arrival> jobs) {
        if (jobs.isEmpty()) {
            return "no jobs";
        }
        double seconds = (jobs.getLast().atMillis() - jobs.getFirst().atMillis()) / 1000.0;
        return String.format(Locale.ROOT, "%,d jobs over %.1f s", jobs.size(), seconds);
    }
}
