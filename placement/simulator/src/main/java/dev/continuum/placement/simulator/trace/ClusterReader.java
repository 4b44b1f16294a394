package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a cluster description: an Alibaba {@code openb} node list ({@code sn,cpu_milli,
 * memory_mib,gpu,model}), the simulator's own node CSV ({@code node,rack,gpus,gpu_model,
 * gpu_memory_mib,cpu_milli,memory_mib}; rack and the last three optional), or a generated one,
 * {@code synthetic:nodes=1250,gpus=8,rack=32,model=A100,cpu=96000,memory=1048576}. Node lists
 * without racks get {@code rackSize} consecutive nodes per rack.
 */
public final class ClusterReader {
    private ClusterReader() {
    }

    public static Cluster read(String spec, int rackSize) {
        if (spec.startsWith("synthetic:") || spec.equals("synthetic")) {
            return synthetic(spec.substring(Math.min(spec.length(), "synthetic:".length())), rackSize);
        }
        return read(Path.of(spec), rackSize);
    }

    public static Cluster synthetic(String params, int rackSize) {
        Map<String, String> p = new HashMap<>();
        for (String kv : params.split(",")) {
            if (!kv.isBlank()) {
                String[] parts = kv.split("=", 2);
                if (parts.length != 2) {
                    throw new IllegalArgumentException("synthetic cluster: expected key=value, got '" + kv + "'");
                }
                p.put(parts[0].trim(), parts[1].trim());
            }
        }
        int nodes = Integer.parseInt(p.getOrDefault("nodes", "16"));
        int gpus = Integer.parseInt(p.getOrDefault("gpus", "8"));
        int rack = Integer.parseInt(p.getOrDefault("rack", String.valueOf(rackSize)));
        String model = p.getOrDefault("model", "A100");
        long cpu = Long.parseLong(p.getOrDefault("cpu", "96000"));
        long mem = Long.parseLong(p.getOrDefault("memory", "1048576"));
        List<NodeSpec> list = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            list.add(new NodeSpec(String.format("node-%05d", i), "rack-" + (i / rack), gpus, model, 81_920, cpu, mem));
        }
        return Cluster.of("synthetic-" + nodes + "x" + gpus, list);
    }

    public static Cluster read(Path path, int rackSize) {
        String file = path.toString();
        try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            if (first == null) {
                throw new TraceFormatException(file, 1, 1, "empty cluster file");
            }
            Map<String, Integer> header = new HashMap<>();
            List<String> names = CsvRecord.parse(file, 1, first.replace("\uFEFF", ""), Map.of()).fields();
            for (int i = 0; i < names.size(); i++) {
                header.put(names.get(i).trim(), i);
            }
            boolean openb = header.containsKey("sn");
            if (!openb && !header.containsKey("node")) {
                throw new TraceFormatException(file, 1, 1,
                        "cluster header must start with 'sn' (openb) or 'node' (continuum), was '" + first + "'");
            }
            List<NodeSpec> nodes = new ArrayList<>();
            String line;
            long lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                CsvRecord r = CsvRecord.parse(file, lineNo, line, header);
                int idx = nodes.size();
                String id = r.text(openb ? "sn" : "node");
                String rack = r.has("rack") ? r.text("rack") : "rack-" + (idx / rackSize);
                int gpus = (int) ContinuumTraceReader.nonNegative(r, openb ? "gpu" : "gpus");
                String model = r.has(openb ? "model" : "gpu_model") ? r.text(openb ? "model" : "gpu_model") : "";
                long cpu = r.longValue("cpu_milli", 96_000);
                long mem = r.longValue("memory_mib", 1_048_576);
                long gpuMem = r.longValue("gpu_memory_mib", 0);
                nodes.add(new NodeSpec(id, rack, gpus, model, gpuMem, cpu, mem));
            }
            String name = path.getFileName().toString().replaceFirst("\\.csv$", "");
            return Cluster.of(name, nodes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
