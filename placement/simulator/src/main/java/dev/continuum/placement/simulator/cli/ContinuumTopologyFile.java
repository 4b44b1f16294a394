package dev.continuum.placement.simulator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.simulator.ContinuumSimulator;
import dev.continuum.placement.simulator.ContinuumSimulator.SiteSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An edge + datacenter topology for {@code simulate --topology} (docs/simulator.md, "Edge + datacenter
 * topologies"): sites with GPU workers and the true compute time of each model, links with bandwidth and latency,
 * and which site each data endpoint is at. Every problem is reported at once, each naming its field as a JSON path
 * ({@code sites[1].gpus: must be a whole number ≥ 1, was 0}).
 */
public final class ContinuumTopologyFile {
    private static final Set<String> TOP = Set.of("sites", "links", "endpoints");
    private static final Set<String> SITE = Set.of("name", "kind", "gpus", "gpuModel", "computeMillis");
    private static final Set<String> LINK = Set.of("from", "to", "bandwidthGbps", "latencyMs");

    /** The file's problems, one line each: {@code field: reason}. */
    public static final class InvalidTopologyException extends IllegalArgumentException {
        private final List<String> problems;

        InvalidTopologyException(String file, List<String> problems) {
            super(file + ": " + problems.size() + (problems.size() == 1 ? " problem" : " problems") + "\n  "
                    + String.join("\n  ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    private final List<String> problems = new ArrayList<>();

    private ContinuumTopologyFile() {
    }

    public static ContinuumSimulator.Topology read(Path file) throws IOException {
        return parse(file.getFileName().toString(), Files.readString(file));
    }

    public static ContinuumSimulator.Topology parse(String name, String json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidTopologyException(name, List.of("not JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr())));
        }
        ContinuumTopologyFile reader = new ContinuumTopologyFile();
        ContinuumSimulator.Topology t = reader.topology(root);
        if (!reader.problems.isEmpty()) {
            throw new InvalidTopologyException(name, reader.problems);
        }
        return t;
    }

    private ContinuumSimulator.Topology topology(JsonNode root) {
        if (root == null || !root.isObject()) {
            problems.add("(top level): must be an object with sites, links and endpoints");
            return null;
        }
        unknownFields(root, "", TOP);
        Set<String> names = new LinkedHashSet<>(); // every named site, even one with other faults: no cascade of errors
        List<SiteSpec> sites = sites(root.get("sites"), names);
        List<Link> links = links(root.get("links"), names);
        Map<String, String> endpoints = endpoints(root.get("endpoints"), names);
        if (problems.isEmpty()) {
            if (sites.stream().noneMatch(s -> s.kind() == Site.Kind.DATACENTER)) {
                problems.add("sites: no site of kind datacenter (the datacenter-only policy needs one)");
            }
            if (sites.stream().noneMatch(s -> s.kind() == Site.Kind.EDGE)) {
                problems.add("sites: no site of kind edge (the edge-only policy needs one)");
            }
            everyHolderLinked(sites, links, endpoints);
        }
        return new ContinuumSimulator.Topology(sites, links, endpoints);
    }

    private List<SiteSpec> sites(JsonNode node, Set<String> seen) {
        List<SiteSpec> out = new ArrayList<>();
        if (node == null || !node.isArray() || node.isEmpty()) {
            problems.add("sites: required, a non-empty array of sites");
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            String at = "sites[" + i + "]";
            JsonNode s = node.get(i);
            if (!s.isObject()) {
                problems.add(at + ": must be an object");
                continue;
            }
            unknownFields(s, at + ".", SITE);
            String name = text(s, at + ".name", true);
            if (name != null && !seen.add(name)) {
                problems.add(at + ".name: '" + name + "' names another site too");
            }
            Site.Kind kind = kind(s.get("kind"), at + ".kind");
            int gpus = wholeAtLeastOne(s.get("gpus"), at + ".gpus");
            String gpuModel = s.has("gpuModel") ? text(s, at + ".gpuModel", false) : "";
            Map<String, Double> compute = compute(s.get("computeMillis"), at + ".computeMillis");
            if (name != null && kind != null && gpus > 0 && compute != null) {
                out.add(new SiteSpec(name, kind, gpus, gpuModel == null ? "" : gpuModel, compute));
            }
        }
        return out;
    }

    private Site.Kind kind(JsonNode node, String at) {
        String k = node == null || !node.isTextual() ? null : node.asText().toLowerCase(Locale.ROOT);
        if ("edge".equals(k)) {
            return Site.Kind.EDGE;
        }
        if ("datacenter".equals(k)) {
            return Site.Kind.DATACENTER;
        }
        problems.add(at + ": must be edge or datacenter, was " + (node == null ? "missing" : node));
        return null;
    }

    private int wholeAtLeastOne(JsonNode node, String at) {
        if (node == null || !node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() < 1) {
            problems.add(at + ": must be a whole number ≥ 1 (GPU workers, one task each), was "
                    + (node == null ? "missing" : node));
            return 0;
        }
        return node.asInt();
    }

    private Map<String, Double> compute(JsonNode node, String at) {
        if (node == null || !node.isObject() || node.isEmpty()) {
            problems.add(at + ": required, an object of model name → milliseconds a task takes on one GPU here, "
                    + "e.g. {\"resnet\": 60}");
            return null;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNumber() || e.getValue().asDouble() <= 0) {
                problems.add(at + "." + e.getKey() + ": must be a number of milliseconds > 0, was " + e.getValue());
            } else {
                out.put(e.getKey(), e.getValue().asDouble());
            }
        }
        return out;
    }

    private List<Link> links(JsonNode node, Set<String> sites) {
        List<Link> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            problems.add("links: must be an array of {from, to, bandwidthGbps, latencyMs}");
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            String at = "links[" + i + "]";
            JsonNode l = node.get(i);
            if (!l.isObject()) {
                problems.add(at + ": must be an object");
                continue;
            }
            unknownFields(l, at + ".", LINK);
            String from = site(l, at + ".from", sites);
            String to = site(l, at + ".to", sites);
            if (from != null && from.equals(to)) {
                problems.add(at + ".to: a link joins two different sites, both ends are " + from);
            }
            JsonNode bw = l.get("bandwidthGbps");
            if (bw == null || !bw.isNumber() || bw.asDouble() <= 0) {
                problems.add(at + ".bandwidthGbps: must be a number > 0 (Gbit/s), was " + (bw == null ? "missing" : bw));
            }
            JsonNode lat = l.get("latencyMs");
            if (lat != null && (!lat.isNumber() || lat.asDouble() < 0)) {
                problems.add(at + ".latencyMs: must be a number ≥ 0 (ms), was " + lat);
            }
            if (from != null && to != null && !from.equals(to) && bw != null && bw.isNumber() && bw.asDouble() > 0
                    && (lat == null || lat.isNumber() && lat.asDouble() >= 0)) {
                out.add(new Link(from, to, bw.asDouble(), lat == null ? 0 : lat.asDouble()));
            }
        }
        return out;
    }

    private String site(JsonNode parent, String at, Set<String> sites) {
        String name = text(parent, at, true);
        if (name != null && !sites.contains(name)) {
            problems.add(at + ": unknown site '" + name + "'; the sites are " + sites);
            return null;
        }
        return name;
    }

    /** Endpoint id → site; every site is also an endpoint of its own name, so a small file may leave this out. */
    private Map<String, String> endpoints(JsonNode node, Set<String> sites) {
        Map<String, String> out = new LinkedHashMap<>();
        sites.forEach(s -> out.put(s, s));
        if (node == null) {
            return out;
        }
        if (!node.isObject()) {
            problems.add("endpoints: must be an object of endpoint id → site, e.g. {\"ep-gw-1\": \"gw-1\"}");
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String site = e.getValue().isTextual() ? e.getValue().asText() : null;
            if (site == null || !sites.contains(site)) {
                problems.add("endpoints." + e.getKey() + ": must name a site " + sites + ", was " + e.getValue());
            } else {
                out.put(e.getKey(), site);
            }
        }
        return out;
    }

    /** The baselines send a job anywhere, so a site holding data needs a link to every other site. */
    private void everyHolderLinked(List<SiteSpec> sites, List<Link> links, Map<String, String> endpoints) {
        Set<String> holders = new LinkedHashSet<>(endpoints.values());
        for (String from : holders) {
            for (SiteSpec to : sites) {
                boolean linked = from.equals(to.name()) || links.stream().anyMatch(l ->
                        l.from().equals(from) && l.to().equals(to.name()) || l.to().equals(from) && l.from().equals(to.name()));
                if (!linked) {
                    problems.add("links: no link between " + from + " and " + to.name() + " (data at " + from
                            + " may be sent to any site by round-robin and least-loaded)");
                }
            }
        }
    }

    private String text(JsonNode parent, String at, boolean required) {
        String field = at.substring(at.lastIndexOf('.') + 1);
        JsonNode n = parent.get(field);
        if (n == null && !required) {
            return null;
        }
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            problems.add(at + ": " + (required ? "required, " : "") + "a non-empty string, was "
                    + (n == null ? "missing" : n));
            return null;
        }
        return n.asText();
    }

    private void unknownFields(JsonNode node, String prefix, Set<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add(prefix + f + ": unknown field; known are " + new java.util.TreeSet<>(known));
            }
        }
    }
}
