package dev.continuum.flow.run;

import static dev.continuum.flow.run.Execution.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.run.RunData.ActionCall;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The life of an Action state: the start request, the provider's answers (ACTIVE, INACTIVE,
 * SUCCEEDED, FAILED), status polls with backoff, and the WaitTime that bounds it.
 */
final class ActionSteps {

    private ActionSteps() {
    }

    static void start(Execution x, Branch branch, ActionState action) throws DataException {
        JsonNode input = x.effectiveInput(branch, action.paths(), "InputPath");
        Templates.Evaluated body = action.parameters().isPresent()
                ? x.template(branch, action.parameters().get(), input, "Parameters", x.context())
                : new Templates.Evaluated(input, input);
        ActionCall call = new ActionCall();
        call.requestId = x.requestId(branch);
        call.actionUrl = action.actionUrl();
        call.body = body.value();
        call.runAs = action.runAs().orElse(null);
        call.actionScope = action.actionScope().orElse(null);
        call.deadline = x.now.plus(action.waitTime());
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.ACTION;
        waiting.token = call.requestId;
        waiting.action = call;
        branch.waiting = waiting;
        x.effects.add(startEffect(x.run, branch, waiting));
        ObjectNode details = JSON.objectNode();
        details.put("action_url", call.actionUrl);
        details.put("request_id", call.requestId);
        details.set("body", body.redacted());
        x.logLine("ActionStarted", action.name(), "Starting action at " + call.actionUrl, details);
    }

    /** The request for a started action; issued again, identical, after a crash. */
    static Effect.StartAction startEffect(RunData run, Branch branch, Waiting waiting) {
        ActionCall call = waiting.action;
        return new Effect.StartAction(waiting.token, branch.stateName, call.actionUrl, call.requestId, call.body,
                run.label, run.tags, call.runAs, call.actionScope);
    }

    /** The provider's answer about a running action. */
    static void observe(Execution x, Branch branch, ActionObservation observation) {
        ActionState action = (ActionState) x.stateOf(branch);
        ActionCall call = branch.waiting.action;
        if (observation.actionId() != null) {
            call.actionId = observation.actionId();
        }
        boolean changed = !Objects.equals(call.status, observation.status())
                || !Objects.equals(call.displayStatus, observation.displayStatus());
        call.status = observation.status();
        call.displayStatus = observation.displayStatus();
        call.inactive = false;
        String status = observation.status() == null ? "" : observation.status();
        switch (status) {
            case "SUCCEEDED" -> complete(x, branch, action, observation, true);
            case "FAILED" -> complete(x, branch, action, observation, false);
            case "INACTIVE" -> {
                call.inactive = true;
                if (!x.now.isBefore(call.deadline)) {
                    timeOut(x, branch, action);
                    return;
                }
                x.run.status = RunStatus.INACTIVE;
                x.run.inactiveReason = inactiveReason(observation);
                x.logLine("FlowInactive", action.name(), "The action needs attention: " + x.run.inactiveReason,
                        statusDocument(observation));
                // WaitTime bounds an INACTIVE action too (a form nobody fills in): one more look at the deadline.
                call.nextPollAt = call.deadline;
                x.effects.add(new Effect.PollAction(branch.waiting.token, call.actionUrl, call.actionId, call.deadline,
                        call.runAs));
            }
            default -> {
                if (changed) {
                    x.logLine("ActionPolled", action.name(), "Action " + call.actionId + " is " + status,
                            statusDocument(observation));
                }
                if (!x.now.isBefore(call.deadline)) {
                    timeOut(x, branch, action);
                } else {
                    schedulePoll(x, branch);
                }
            }
        }
    }

    private static String inactiveReason(ActionObservation observation) {
        if (observation.displayStatus() != null && !observation.displayStatus().isBlank()) {
            return observation.displayStatus();
        }
        if (observation.details() != null && !observation.details().isNull()) {
            JsonNode details = observation.details();
            return details.isTextual() ? details.asText() : details.toString();
        }
        return "the action provider reported INACTIVE";
    }

    private static void schedulePoll(Execution x, Branch branch) {
        ActionCall call = branch.waiting.action;
        double factor = Math.pow(x.options.pollBackoffRate(), call.polls);
        long millis = (long) Math.min(x.options.pollInitial().toMillis() * factor, x.options.pollMax().toMillis());
        Instant at = x.now.plus(Duration.ofMillis(millis));
        if (at.isAfter(call.deadline)) {
            at = call.deadline; // so a timed-out action is noticed on time
        }
        call.polls++;
        call.nextPollAt = at;
        x.effects.add(new Effect.PollAction(branch.waiting.token, call.actionUrl, call.actionId, at, call.runAs));
    }

    private static void timeOut(Execution x, Branch branch, ActionState action) {
        ActionCall call = branch.waiting.action;
        x.effects.add(new Effect.CancelAction(call.actionUrl, call.actionId, call.runAs));
        // No longer awaited: a run that now fails must not cancel it a second time (the provider answers 409).
        branch.waiting = null;
        String cause = "Action " + call.actionId + " in state '" + action.name() + "' was still "
                + (call.inactive ? "waiting (INACTIVE)" : "running") + " after its WaitTime of "
                + action.waitTime().toSeconds() + " seconds and was cancelled";
        x.logLine("ActionFailed", action.name(), cause, null);
        ErrorSteps.handleError(x, branch, ErrorNames.ACTION_TIMEOUT, cause);
    }

    private static void complete(Execution x, Branch branch, ActionState action, ActionObservation observation,
                                 boolean succeeded) {
        ActionCall call = branch.waiting.action;
        JsonNode result = statusDocument(observation);
        if (call.actionId != null) {
            x.effects.add(new Effect.ReleaseAction(call.actionUrl, call.actionId, call.runAs));
        }
        if (succeeded) {
            x.logLine("ActionCompleted", action.name(), "Action " + call.actionId + " succeeded", result);
        } else {
            x.logLine("ActionFailed", action.name(), "Action " + call.actionId + " failed", result);
            if (action.exceptionOnActionFailure()) {
                ErrorSteps.handleError(x, branch, ErrorNames.ACTION_FAILED, result.toString());
                return;
            }
        }
        try {
            branch.waiting = null;
            x.moveOn(branch, action.next(), x.place(branch, action.paths().resultPath(), result));
        } catch (DataException e) {
            x.failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }

    /** The action status as Globus places it at ResultPath. */
    static ObjectNode statusDocument(ActionObservation observation) {
        ObjectNode status = JSON.objectNode();
        status.put("action_id", observation.actionId());
        status.put("status", observation.status());
        status.put("display_status", observation.displayStatus());
        status.set("details", observation.details() == null ? JSON.nullNode() : observation.details().deepCopy());
        return status;
    }
}
