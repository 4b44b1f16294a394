package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.validation.InputSchemas;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Human input: the forms a run waits on ({@link FormAction}) and their answers. The form lives in the run's own
 * stored state and an answer travels through the run's inbox, so both survive an engine restart. The run's owner
 * and managers may answer, and whoever the state names in {@code selectable_by}; an answer must satisfy the form's
 * JSON schema and is taken once.
 */
@ApplicationScoped
public class HumanInputs {

    /** A form waiting in {@code state.stateName()} of run {@code runId}. */
    public record Pending(UUID runId, RunState.PendingForm state) {}

    private final RunService runs;
    private final FlowService flows;
    private final RunStore store;
    private final FlowInterpreters interpreters;

    public HumanInputs(RunService runs, FlowService flows, RunStore store, FlowInterpreters interpreters) {
        this.runs = runs;
        this.flows = flows;
        this.store = store;
        this.interpreters = interpreters;
    }

    /** Every form the run waits on; anyone who may see the run may see them (they are in its details too). */
    public Uni<List<Pending>> pending(UUID runId, Viewer viewer) {
        return runs.get(runId, viewer).map(run -> run.state().pendingForms().stream()
                .map(form -> new Pending(runId, form)).toList());
    }

    /** The form waiting in {@code stateName}, for someone who may answer it. */
    public Uni<Pending> form(UUID runId, String stateName, Viewer viewer) {
        return answerable(runId, stateName, viewer);
    }

    /** Checks {@code answer} against the form's schema and hands it to the run, which goes on from that state. */
    public Uni<RunRecord> submit(UUID runId, String stateName, JsonNode answer, Viewer viewer) {
        return answerable(runId, stateName, viewer).flatMap(pending -> {
            if (answer == null || answer.isMissingNode()) {
                throw EngineError.invalidField("", "A JSON body with the answer to the form is required.");
            }
            JsonNode schema = pending.state().form().get(FormAction.SCHEMA);
            if (schema != null) {
                List<FieldIssue> issues = InputSchemas.validateInput(schema, answer).stream()
                        .map(issue -> new FieldIssue(issue.pointer(), issue.message())).toList();
                if (!issues.isEmpty()) {
                    throw EngineError.invalid("Invalid input", "The answer does not satisfy the form of state '" + stateName
                            + "': " + issues.size() + " problem(s); see errors.", issues);
                }
            }
            String token = pending.state().token();
            return store.inbox(runId).flatMap(inbox -> {
                if (inbox.stream().anyMatch(item -> item.token().equals(token))) {
                    throw alreadyAnswered(stateName);
                }
                ObjectNode status = JsonNodeFactory.instance.objectNode()
                        .put("action_id", FormActions.actionId(token))
                        .put("status", "SUCCEEDED")
                        .put("display_status", "Submitted by " + viewer.id());
                status.set("details", answer.deepCopy());
                return runs.signal(runId, token, status);
            });
        });
    }

    private Uni<Pending> answerable(UUID runId, String stateName, Viewer viewer) {
        return runs.get(runId).flatMap(run -> flows.version(run.flowId(), run.flowVersion()).flatMap(flow -> {
            boolean sees = !viewer.restricted() || viewer.id().equals(run.ownerId()) || Access.seesRun(run, flow, viewer.id());
            var waiting = run.state().pendingForms().stream().filter(form -> form.stateName().equals(stateName)).findFirst();
            if (waiting.isPresent()) {
                List<String> selectableBy = principals(waiting.get().form().get(FormAction.SELECTABLE_BY));
                if (!viewer.restricted() || Access.answersForm(run, flow, selectableBy, viewer.id())) {
                    return Uni.createFrom().item(new Pending(runId, waiting.get()));
                }
                if (!sees) {
                    throw EngineError.notFound("Run", runId.toString());
                }
                throw new AccessDenied("You may see run " + runId + " but not answer its form in state '" + stateName
                        + "': its owner, its managers and those named in selectable_by may.");
            }
            if (!sees) {
                throw EngineError.notFound("Run", runId.toString());
            }
            return interpreters.forVersion(run.flowId(), run.flowVersion()).map(interpreter -> {
                if (interpreter.flow().states().get(stateName) instanceof ActionState action
                        && FormAction.is(action.actionUrl())) {
                    throw alreadyAnswered(stateName);
                }
                throw new EngineError(EngineError.Kind.NOT_FOUND, "Form not found", "State '" + stateName
                        + "' of run " + runId + " is not a user-input state.", List.of());
            });
        }));
    }

    private static EngineError alreadyAnswered(String stateName) {
        return EngineError.conflict("No form waiting", "No form is waiting in state '" + stateName
                + "': it has been answered already, has timed out, or the run has not reached it.");
    }

    private static List<String> principals(JsonNode list) {
        List<String> names = new ArrayList<>();
        if (list != null && list.isArray()) {
            list.forEach(name -> names.add(name.asText()));
        }
        return names;
    }
}
