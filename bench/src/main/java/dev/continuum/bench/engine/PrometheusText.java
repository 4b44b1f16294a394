package dev.continuum.bench.engine;

import java.util.OptionalDouble;

/** Reads one counter out of the Prometheus text exposition format the engine serves at /q/metrics. */
public final class PrometheusText {

    private PrometheusText() {}

    /** The counter's value summed over all its label sets; empty when the engine does not export it. */
    public static OptionalDouble counter(String exposition, String name) {
        double sum = 0;
        boolean seen = false;
        for (String line : exposition.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            if (!rest.startsWith("{") && !rest.startsWith(" ")) {
                continue; // a longer metric name that merely starts with this one
            }
            int valueStart = rest.startsWith("{") ? rest.indexOf('}') + 1 : 0;
            String[] fields = rest.substring(valueStart).trim().split("\\s+");
            sum += Double.parseDouble(fields[0]);
            seen = true;
        }
        return seen ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }
}
