package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.core.JobState;
import dev.continuum.provider.training.core.Move;
import dev.continuum.provider.training.core.TrainingJob;
import dev.continuum.provider.training.core.TrainingRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A job as the action's {@code details}: what users read (state, placement, progress, checkpoints,
 * history) and what a restarted provider needs to pick the job up again (attempt, backend handle,
 * target, GPUs after a resize). The details are stored with the action, so they are the job's state.
 */
final class JobJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JobJson() {
    }

    /**
     * One line of the operators' job list ({@code GET {base}/jobs}): id, state, where it runs (site, partition,
     * GPUs), who asked for it and when its first run started; {@link #details} has the rest.
     */
    static ObjectNode summary(TrainingJob job, Optional<String> owner) {
        ObjectNode n = F.objectNode().put("id", job.id()).put("state", job.state().wire());
        job.placement().ifPresentOrElse(p -> n.put("site", p.site()).put("partition", p.partition()).put("gpus", p.gpus()),
                () -> n.putNull("site").putNull("partition").put("gpus", 0));
        n.put("owner", owner.orElse(null));
        n.put("started", job.runningSince().map(Instant::toString).orElse(null));
        n.put("attempt", job.attempt());
        return n;
    }

    static ObjectNode details(TrainingJob job) {
        ObjectNode d = F.objectNode();
        d.put("state", job.state().wire());
        d.put("message", job.message());
        d.put("attempt", job.attempt());
        job.handle().ifPresent(h -> d.put("backend", h.backend()).put("backend_job", h.value()));
        job.placement().ifPresent(p -> d.set("placement", placement(p)));
        job.target().ifPresent(p -> d.set("target", placement(p)));
        job.progress().ifPresent(p -> {
            ObjectNode n = d.putObject("progress").put("step", p.step());
            p.loss().ifPresent(l -> n.put("loss", l));
        });
        List<Checkpoints.Checkpoint> all = Checkpoints.list(job.request().checkpointDir());
        ObjectNode c = d.putObject("checkpoints").put("count", all.size())
                .put("location", job.request().checkpointDir().toString());
        if (!all.isEmpty()) {
            c.put("last", all.getLast().path().getFileName().toString()).put("last_step", all.getLast().step())
                    .put("size_bytes", all.getLast().sizeBytes()).put("last_at", all.getLast().modified().toString());
        }
        ArrayNode h = d.putArray("history");
        for (Move m : job.history()) {
            ObjectNode n = h.addObject().put("at", m.at().toString()).put("kind", m.kind().name().toLowerCase())
                    .put("reason", m.reason()).put("step", m.step());
            n.set("from", placement(m.from()));
            m.to().ifPresent(t -> n.set("to", placement(t)));
            m.carried().ifPresent(k -> {
                ObjectNode carried = n.putObject("carried").put("checkpoint", k.checkpoint()).put("bytes", k.bytes())
                        .put("sha256", k.sha256()).put("transfer_action", k.transferAction()).put("millis", k.millis());
                k.failure().ifPresent(f -> carried.put("failure", f));
            });
        }
        d.put("gpus_min", job.request().gpusMin()).put("gpus_max", job.request().gpusMax());
        d.put("output_location", job.request().outputDir().toString());
        job.runningSince().ifPresent(t -> d.put("running_since", t.toString()));
        return d;
    }

    /** The job as stored in {@code details}, with the request read again from the action's body. */
    static TrainingJob restore(String id, TrainingRequest fromBody, JsonNode d) {
        TrainingRequest resized = fromBody.withGpus(d.path("gpus_min").asInt(fromBody.gpusMin()),
                d.path("gpus_max").asInt(fromBody.gpusMax()));
        // a migrated job belongs to the site and partition it was moved to, not the ones its request named, and its
        // checkpoints and model are where they were last (another site's directories after a move between sites)
        Path checkpoints = d.path("checkpoints").hasNonNull("location")
                ? Path.of(d.path("checkpoints").path("location").asText()) : resized.checkpointDir();
        Path output = d.hasNonNull("output_location") ? Path.of(d.path("output_location").asText()) : resized.outputDir();
        TrainingRequest request = optionalPlacement(d.path("target")).or(() -> optionalPlacement(d.path("placement")))
                .map(p -> resized.atSite(p.site(), p.partition(), checkpoints, output)).orElse(resized);
        Optional<BackendJobHandle> handle = d.hasNonNull("backend_job")
                ? Optional.of(new BackendJobHandle(d.path("backend").asText(), d.get("backend_job").asText()))
                : Optional.empty();
        Optional<Progress> progress = d.has("progress") ? Optional.of(new Progress(d.path("progress").path("step").asLong(),
                d.path("progress").has("loss") ? OptionalDouble.of(d.path("progress").path("loss").asDouble())
                        : OptionalDouble.empty())) : Optional.empty();
        List<Move> history = new ArrayList<>();
        d.path("history").forEach(m -> history.add(new Move(Instant.parse(m.path("at").asText()),
                Move.Kind.valueOf(m.path("kind").asText().toUpperCase()), placement(m.path("from")),
                m.has("to") ? Optional.of(placement(m.path("to"))) : Optional.empty(), m.path("reason").asText(),
                m.path("step").asLong(), carried(m.path("carried")))));
        return new TrainingJob(id, request, JobState.valueOf(d.path("state").asText("queued").toUpperCase()),
                d.path("attempt").asInt(0), handle, optionalPlacement(d.path("placement")),
                optionalPlacement(d.path("target")), progress, history, d.path("message").asText(""),
                d.hasNonNull("running_since") ? Optional.of(Instant.parse(d.get("running_since").asText())) : Optional.empty());
    }

    private static Optional<Move.Carried> carried(JsonNode c) {
        return c.isObject() ? Optional.of(new Move.Carried(c.path("checkpoint").asText(), c.path("bytes").asLong(),
                c.path("sha256").asText(), c.path("transfer_action").asText(), c.path("millis").asLong(),
                c.hasNonNull("failure") ? Optional.of(c.get("failure").asText()) : Optional.empty())) : Optional.empty();
    }

    private static ObjectNode placement(Placement p) {
        ObjectNode n = F.objectNode().put("site", p.site()).put("partition", p.partition()).put("gpus", p.gpus());
        p.nodes().forEach(n.putArray("nodes")::add);
        p.gpuIds().forEach(n.putArray("gpu_ids")::add);
        return n;
    }

    private static Optional<Placement> optionalPlacement(JsonNode n) {
        return n.isObject() ? Optional.of(placement(n)) : Optional.empty();
    }

    private static Placement placement(JsonNode n) {
        List<String> nodes = new ArrayList<>();
        n.path("nodes").forEach(x -> nodes.add(x.asText()));
        List<String> gpuIds = new ArrayList<>();
        n.path("gpu_ids").forEach(x -> gpuIds.add(x.asText()));
        return new Placement(n.path("site").asText(), n.path("partition").asText(), n.path("gpus").asInt(), nodes, gpuIds);
    }
}
