package dev.continuum.engine.app;

import dev.continuum.engine.config.EngineConfig;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.InterpreterOptions;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.ValidationReport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** One interpreter per flow version; versions are immutable, so they are cached for good. */
@ApplicationScoped
public class FlowInterpreters {

    private final FlowStore flows;
    private final InterpreterOptions options;
    private final FlowValidator validator = new FlowValidator();
    private final Map<String, Interpreter> cache = new ConcurrentHashMap<>();

    public FlowInterpreters(FlowStore flows, EngineConfig config) {
        this.flows = flows;
        EngineConfig.Runs runs = config.runs();
        this.options = new InterpreterOptions(runs.pollInitial(), runs.pollMax(), runs.pollBackoffRate(), runs.maxStateBytes(),
                runs.maxTransitionsPerTurn(), runs.maxTransitions());
    }

    public Interpreter forRecord(FlowRecord flow) {
        return cache.computeIfAbsent(flow.id() + ":" + flow.version(), key -> build(flow));
    }

    public Uni<Interpreter> forVersion(UUID flowId, int version) {
        Interpreter cached = cache.get(flowId + ":" + version);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return flows.findVersion(flowId, version).map(found -> forRecord(found.orElseThrow(
                () -> new IllegalStateException("flow " + flowId + " version " + version + " is missing"))));
    }

    private Interpreter build(FlowRecord flow) {
        ValidationReport report = validator.validate(flow.definition());
        FlowDefinition definition = report.flow().orElseThrow(
                () -> new IllegalStateException("stored flow " + flow.id() + " no longer validates: " + report.issues()));
        return new Interpreter(definition, options);
    }
}
