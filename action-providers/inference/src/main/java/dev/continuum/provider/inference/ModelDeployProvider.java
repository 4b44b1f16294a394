package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.ModelDeployment;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Deploys an ONNX model file to a named set of gateways, so a flow can ship a model it has just trained.
 * The file is a path under the provider's model root (the datacenter endpoint's directory, where the
 * transfer and training providers leave files), confined by the endpoint paths' rules. It is copied and
 * hashed once ({@link StagedModels}), each gateway is told over MQTT to fetch it, check the digest and
 * deploy it as {@code name@version} (retiring the version the name pointed at, unless
 * {@code retire_previous} is false), and the action succeeds when every gateway's heartbeat shows the new
 * digest under that name — with each gateway's digest and the one it replaced. A gateway that refuses the
 * file (digest mismatch, a model ONNX Runtime cannot load) never shows it: the action fails at its deadline
 * naming the gateways that did not load it.
 */
public final class ModelDeployProvider implements ActionProvider {

    static final JsonNode SCHEMA = InferenceProvider.read("""
        {"type": "object",
         "properties": {
           "model_path": {"type": "string", "minLength": 1,
                          "description": "the ONNX file, relative to the provider's model root (e.g. the datacenter endpoint)"},
           "name": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "the name tasks use for the model"},
           "version": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"},
           "devices": {"type": "array", "minItems": 1, "maxItems": 1000, "uniqueItems": true,
                       "items": {"type": "string", "minLength": 1}, "description": "gateway device ids"},
           "retire_previous": {"type": "boolean", "default": true},
           "deadline_seconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 86400}
         },
         "required": ["model_path", "name", "version", "devices"],
         "additionalProperties": false}""");

    private static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(500);

    private final Fleet fleet;
    private final TaskDispatcher dispatcher;
    private final StagedModels staged;
    private final Path modelRoot;
    private final Clock clock;

    ModelDeployProvider(Fleet fleet, TaskDispatcher dispatcher, StagedModels staged, Path modelRoot, Clock clock) {
        this.fleet = fleet;
        this.dispatcher = dispatcher;
        this.staged = staged;
        this.modelRoot = modelRoot;
        this.clock = clock;
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Edge model deployment")
                .subtitle("Deploys an ONNX model to edge gateways")
                .description("Sends a model file from the model root to the named gateways, which check its digest and "
                        + "load it under name@version; succeeds when every gateway has loaded it, with each gateway's digest.")
                .keywords(List.of("deploy", "model", "onnx", "edge"))
                .scope("urn:continuum:providers:inference")
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        JsonNode body = request.body();
        Path file = modelFile(body.get("model_path").asText());
        List<String> devices = new ArrayList<>();
        JsonNode list = body.get("devices");
        for (int i = 0; i < list.size(); i++) {
            String id = list.get(i).asText();
            try {
                Topics.checkId(id);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("/body/devices/" + i, e.getMessage());
            }
            if (fleet.device(id).isEmpty()) {
                throw new InvalidInputException("/body/devices/" + i, "no gateway " + id + " has registered with this provider");
            }
            devices.add(id);
        }
        Instant deadline = InferenceProvider.deadline(request, clock, DEFAULT_DEADLINE);
        Deployment d = send(ctx, file, devices, body, deadline);
        ActionStatus active = ctx.active("Sent to " + devices.size() + " gateway(s)", d.details(Map.of()));
        ctx.schedule(POLL, () -> watch(ctx, d, Map.of()));
        return active;
    }

    /** Stages the file and asks each gateway to deploy it. */
    private Deployment send(ActionContext ctx, Path file, List<String> devices, JsonNode body, Instant deadline) {
        StagedModels.Staged copy = staged.stage(file);
        String name = body.get("name").asText();
        String version = body.get("version").asText();
        boolean retire = body.path("retire_previous").asBoolean(true);
        Map<String, String> previous = new LinkedHashMap<>();
        for (String id : devices) {
            Optional<String> before = deployedDigest(id, name);
            previous.put(id, before.orElse(null));
            String retireDigest = retire ? before.filter(d -> !d.equals(copy.digest())).orElse(null) : null;
            dispatcher.deployModel(id, new ModelDeployment(name, version, copy.digest(), staged.urlOf(copy), retireDigest));
        }
        ctx.log("Sent", "asked " + devices.size() + " gateway(s) to deploy " + name + "@" + version + " = " + copy.digest(),
                JsonNodeFactory.instance.objectNode().put("digest", copy.digest()).put("size_bytes", copy.sizeBytes()));
        return new Deployment(name, version, copy, devices, previous, deadline);
    }

    /** The file under the model root, or 400 naming {@code /body/model_path} saying why not. */
    private Path modelFile(String raw) {
        try {
            Path realRoot = modelRoot.toRealPath();
            Path file = PathNormalizer.normalize(raw).resolveIn(realRoot);
            if (!Files.isRegularFile(file)) {
                throw new InvalidInputException("/body/model_path", "no file " + raw + " under the model root");
            }
            if (!file.toRealPath().startsWith(realRoot)) {
                throw new InvalidInputException("/body/model_path", raw + " leads outside the model root");
            }
            return file;
        } catch (UnsafePathException e) {
            throw new InvalidInputException("/body/model_path", e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a gateway's heartbeat says {@code name} (without version) points at now. */
    private Optional<String> deployedDigest(String deviceId, String name) {
        return fleet.device(deviceId).map(Fleet.Device::heartbeat).flatMap(hb -> hb.loadedModels().stream()
                .filter(m -> m.answersTo(name) && name.equals(m.name())).map(Heartbeat.LoadedModel::digest).findFirst());
    }

    private boolean loaded(String deviceId, Deployment d) {
        return fleet.device(deviceId).map(Fleet.Device::heartbeat).map(hb -> hb.loadedModels().stream()
                .anyMatch(m -> d.copy().digest().equals(m.digest()) && d.name().equals(m.name())
                        && d.version().equals(m.version()))).orElse(false);
    }

    private void watch(ActionContext ctx, Deployment d, Map<String, Instant> loadedAt) {
        if (ctx.finished()) {
            staged.unstage(d.copy().token());
            return;
        }
        Map<String, Instant> now = new LinkedHashMap<>(loadedAt);
        for (String id : d.devices()) {
            if (!now.containsKey(id) && loaded(id, d)) {
                now.put(id, clock.instant());
                ctx.log("Loaded", id + " loaded " + d.name() + "@" + d.version(), null);
            }
        }
        if (now.size() == d.devices().size()) {
            staged.unstage(d.copy().token());
            ctx.complete(d.details(now));
        } else if (clock.instant().isAfter(d.deadline())) {
            staged.unstage(d.copy().token());
            List<String> missing = d.devices().stream().filter(id -> !now.containsKey(id)).toList();
            ObjectNode why = d.details(now).put("error", "NotLoaded")
                    .put("reason", "not loaded by the deadline (the gateway is offline, or refused the file: see its log): "
                            + String.join(", ", missing));
            ctx.fail("Not loaded on " + String.join(", ", missing), why);
        } else {
            if (now.size() > loadedAt.size()) {
                ctx.progress("Loaded on " + now.size() + " of " + d.devices().size() + " gateways", d.details(now));
            }
            ctx.schedule(POLL, () -> watch(ctx, d, now));
        }
    }

    /**
     * After a provider restart the staged copy and the timers are gone: the file is staged and sent again
     * (gateways deploy by digest, so a repeat costs a message, never a second copy in their cache). The
     * digests the names pointed at before are those the gateways report now, which may already be the new one.
     */
    @Override
    public void resume(ActionContext ctx) {
        JsonNode body = ctx.request().body();
        JsonNode before = ctx.status().details();
        try {
            List<String> devices = new ArrayList<>();
            body.get("devices").forEach(n -> devices.add(n.asText()));
            Instant deadline = Instant.parse(before.path("deadline").asText());
            Deployment d = send(ctx, modelFile(body.get("model_path").asText()), devices, body, deadline);
            ctx.log("Resumed", "provider restarted; sent the model again", null);
            ctx.schedule(POLL, () -> watch(ctx, d, Map.of()));
        } catch (RuntimeException e) {
            ctx.fail("Cannot resume after a provider restart", JsonNodeFactory.instance.objectNode()
                    .put("error", "Interrupted").put("reason", String.valueOf(e.getMessage())));
        }
    }

    @Override
    public void cancel(ActionContext ctx) {
        // the next watch sees the action finished and stops serving the file
    }

    private record Deployment(String name, String version, StagedModels.Staged copy, List<String> devices,
                              Map<String, String> previous, Instant deadline) {

        ObjectNode details(Map<String, Instant> loadedAt) {
            ObjectNode out = JsonNodeFactory.instance.objectNode().put("name", name).put("version", version)
                    .put("digest", copy.digest()).put("size_bytes", copy.sizeBytes()).put("deadline", deadline.toString());
            ArrayNode gateways = out.putArray("gateways");
            for (String id : devices) {
                ObjectNode g = gateways.addObject().put("device_id", id).put("loaded", loadedAt.containsKey(id));
                if (loadedAt.containsKey(id)) {
                    g.put("digest", copy.digest()).put("loaded_at", loadedAt.get(id).toString());
                }
                g.put("previous_digest", previous.get(id));
                g.put("changed", loadedAt.containsKey(id) && !copy.digest().equals(previous.get(id)));
            }
            return out;
        }
    }
}
