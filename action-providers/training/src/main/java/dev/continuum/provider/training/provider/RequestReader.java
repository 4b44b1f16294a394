package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.paths.UnsafePathException;
import dev.continuum.provider.server.InvalidInputException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendInventory.PartitionInventory;
import dev.continuum.provider.training.core.TrainingRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a request body (already checked by {@link Schemas#REQUEST}) into a {@link TrainingRequest},
 * refusing with 400 naming the field what the schema cannot see: more GPUs than the partition has,
 * an unknown partition or GPU model, a location outside the allowed roots.
 */
final class RequestReader {
    private final BackendInventory inventory;
    private final AllowedRoots roots;
    private final Duration defaultGrace;

    RequestReader(BackendInventory inventory, AllowedRoots roots, Duration defaultGrace) {
        this.inventory = inventory;
        this.roots = roots;
        this.defaultGrace = defaultGrace;
    }

    TrainingRequest read(JsonNode body, String actionId) {
        PartitionInventory partition = partition(body);
        int max = body.path("gpus_max").asInt(body.path("gpus_min").asInt(1));
        int min = body.path("gpus_min").asInt(max);
        if (min > max) {
            throw new InvalidInputException("/body/gpus_min", "gpus_min (" + min + ") is above gpus_max (" + max + ")");
        }
        if (max > partition.totalGpus()) {
            throw new InvalidInputException("/body/gpus_max", "asks for " + max + " GPUs, partition " + partition.name()
                    + " has " + partition.totalGpus());
        }
        Optional<String> model = text(body, "gpu_model");
        if (model.isPresent() && partition.gpuModel().isPresent() && !partition.gpuModel().equals(model)) {
            throw new InvalidInputException("/body/gpu_model", "partition " + partition.name() + " has "
                    + partition.gpuModel().get() + " GPUs, not " + model.get());
        }
        Path checkpoints = confine(body, "checkpoint_location", "checkpoints/" + actionId);
        Path output = confine(body, "output_location", "models/" + actionId);
        return new TrainingRequest(strings(body.path("command")), text(body, "image"), strings(body.path("args")),
                env(body.path("env")), strings(body.path("datasets")), min, max, model, body.path("cpus").asInt(1),
                body.path("memory_mb").asLong(0), Duration.ofSeconds(body.path("time_limit_seconds").asLong(86_400)),
                checkpoints, output, body.path("priority").asInt(0), deadline(body), body.path("elastic").asBoolean(false),
                Optional.of(partition.name()), body.has("grace_seconds")
                        ? Duration.ofSeconds(body.get("grace_seconds").asLong()) : defaultGrace);
    }

    private PartitionInventory partition(JsonNode body) {
        Optional<String> name = text(body, "partition");
        if (name.isEmpty()) {
            return inventory.defaultPartition().orElseThrow(() ->
                    new InvalidInputException("/body/partition", "the backend reports no partitions"));
        }
        return inventory.partition(name.get()).orElseThrow(() -> new InvalidInputException("/body/partition",
                "unknown partition " + name.get() + "; there are " + inventory.partitions().stream()
                        .map(PartitionInventory::name).toList()));
    }

    private Path confine(JsonNode body, String field, String fallback) {
        try {
            return roots.confine(text(body, field).orElse(fallback));
        } catch (UnsafePathException e) {
            throw new InvalidInputException("/body/" + field, e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<Instant> deadline(JsonNode body) {
        try {
            return text(body, "deadline").map(Instant::parse);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException("/body/deadline", "is not an ISO-8601 instant such as 2026-11-25T18:00:00Z");
        }
    }

    private static Optional<String> text(JsonNode body, String field) {
        return body.hasNonNull(field) ? Optional.of(body.get(field).asText()) : Optional.empty();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Map<String, String> env(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
