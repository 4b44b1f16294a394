package dev.continuum.telemetry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names deploy/grafana/continuum.json queries, by the dashboard row that groups them: each row holds the
 * panels of one service ("Engine", "Planner"), so the tests of that service check that it serves every name its
 * row queries (OperationsApiTest, GatewayFeedTest).
 */
public final class DashboardQueries {

    /** Continuum's metric names: a PromQL word before a selector, a range or an operator. */
    private static final Pattern METRIC = Pattern.compile("\\b(continuum_[a-z0-9_]+)\\b");

    private DashboardQueries() {}

    /**
     * The metric names in the PromQL of the panels under row {@code row} (those that follow it up to the next row),
     * of the dashboard found at {@code repositoryRoot}/deploy/grafana/continuum.json.
     */
    public static Set<String> metrics(Path repositoryRoot, String row) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(repositoryRoot.resolve("deploy/grafana/continuum.json").toFile());
        Set<String> names = new TreeSet<>();
        String current = null;
        for (JsonNode panel : doc.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                current = panel.path("title").asText();
                continue;
            }
            if (!row.equals(current)) {
                continue;
            }
            for (JsonNode target : panel.path("targets")) {
                Matcher m = METRIC.matcher(target.path("expr").asText());
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }
}
