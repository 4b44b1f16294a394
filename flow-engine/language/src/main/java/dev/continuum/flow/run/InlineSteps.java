package dev.continuum.flow.run;

import static dev.continuum.flow.run.Execution.JSON;
import static dev.continuum.flow.run.Execution.details;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.data.Timestamps;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.WaitState;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.time.Instant;
import java.util.Optional;

/**
 * The states that do their work inside the interpreter, with no provider: Pass, Choice, ExpressionEval,
 * Fail, and Wait (which at most sets a timer).
 */
final class InlineSteps {

    private InlineSteps() {
    }

    static void pass(Execution x, Branch branch, PassState pass) throws DataException {
        JsonNode input = x.effectiveInput(branch, pass.paths(), "InputPath");
        Templates.Evaluated result;
        if (pass.result().isPresent()) {
            result = new Templates.Evaluated(pass.result().get().deepCopy(), pass.result().get());
        } else if (pass.parameters().isPresent()) {
            result = x.template(branch, pass.parameters().get(), input, "Parameters", x.context());
        } else {
            result = new Templates.Evaluated(input, input);
        }
        x.logLine("PassCompleted", pass.name(), "Pass state '" + pass.name() + "' completed",
                details("result", result.redacted()));
        x.moveOn(branch, pass.next(), x.place(branch, pass.paths().resultPath(), result.value()));
    }

    static void choice(Execution x, Branch branch, ChoiceState choice) throws DataException {
        ChoiceRules rules = new ChoiceRules(Templates.withContext(branch.data, x.context()), x.context(), x.where(branch));
        String target = null;
        for (int i = 0; i < choice.choices().size() && target == null; i++) {
            ChoiceState.Branch candidate = choice.choices().get(i);
            if (rules.holds(candidate.rule(), "Choices[" + i + "]")) {
                target = candidate.next();
            }
        }
        if (target == null && choice.defaultNext().isPresent()) {
            target = choice.defaultNext().get();
        }
        if (target == null) {
            ErrorSteps.failBranch(x, branch, ErrorNames.NO_CHOICE_MATCHED, "Choice state '" + choice.name()
                    + "' matched no rule and has no Default");
            return;
        }
        x.logLine("ChoiceCompleted", choice.name(), "Choice state '" + choice.name() + "' chose '" + target + "'",
                details("next", JSON.textNode(target)));
        x.moveOn(branch, Optional.of(target), branch.data);
    }

    static void expressionEval(Execution x, Branch branch, ExpressionEvalState eval) throws DataException {
        Templates.Evaluated result = eval.parameters().filter(p -> !p.isNull()).isPresent()
                ? x.template(branch, eval.parameters().get(), branch.data, "Parameters", x.context())
                : new Templates.Evaluated(JSON.nullNode(), JSON.nullNode());
        x.logLine("ExpressionEvalCompleted", eval.name(), "ExpressionEval state '" + eval.name() + "' completed",
                details("result", result.redacted()));
        x.moveOn(branch, eval.next(), x.place(branch, eval.resultPath(), result.value()));
    }

    static void fail(Execution x, Branch branch, FailState fail) throws DataException {
        JsonNode view = Templates.withContext(branch.data, x.context());
        String error = fail.error().orElse(null);
        String cause = fail.cause().orElse(null);
        if (fail.errorPath().isPresent()) {
            error = text(x.read(branch, fail.errorPath().get(), view, "ErrorPath"));
        }
        if (fail.causePath().isPresent()) {
            cause = text(x.read(branch, fail.causePath().get(), view, "CausePath"));
        }
        ErrorSteps.failBranch(x, branch, error == null ? FailState.DEFAULT_ERROR : error,
                cause == null ? "Fail state '" + fail.name() + "' was reached" : cause);
    }

    private static String text(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    static void waitState(Execution x, Branch branch, WaitState wait) throws DataException {
        JsonNode input = x.select(branch, branch.data, wait.inputPath(), "InputPath");
        JsonNode view = Templates.withContext(input, x.context());
        Instant until = switch (wait.until()) {
            case WaitState.Seconds seconds -> x.now.plusSeconds(seconds.seconds());
            case WaitState.Timestamp timestamp -> timestamp.timestamp();
            case WaitState.SecondsPath path -> {
                JsonNode value = x.read(branch, path.path(), view, "SecondsPath");
                if (!value.isIntegralNumber() || value.asLong() < 0) {
                    throw new DataException(x.where(branch) + " SecondsPath: '" + path.path()
                            + "' must hold a whole number of seconds, 0 or more, but holds " + value);
                }
                yield x.now.plusSeconds(value.asLong());
            }
            case WaitState.TimestampPath path -> {
                JsonNode value = x.read(branch, path.path(), view, "TimestampPath");
                yield Timestamps.parse(value).orElseThrow(() -> new DataException(x.where(branch)
                        + " TimestampPath: '" + path.path() + "' must hold an RFC 3339 timestamp, but holds " + value));
            }
        };
        // What the state passes on, held while it waits (the run's data cannot change meanwhile).
        branch.data = x.select(branch, input, wait.outputPath(), "OutputPath");
        x.logLine("WaitStarted", wait.name(), "Waiting until " + until, details("until", JSON.textNode(until.toString())));
        if (!until.isAfter(x.now)) {
            waitOver(x, branch, wait);
            return;
        }
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.TIMER;
        waiting.token = x.token(branch) + "#wait";
        waiting.at = until;
        branch.waiting = waiting;
        x.effects.add(new Effect.ScheduleTimer(waiting.token, until));
    }

    /** A Wait state's time has come. */
    static void waitOver(Execution x, Branch branch) {
        waitOver(x, branch, (WaitState) x.stateOf(branch));
    }

    private static void waitOver(Execution x, Branch branch, WaitState wait) {
        x.logLine("WaitCompleted", wait.name(), "Wait state '" + wait.name() + "' completed", null);
        x.moveOn(branch, wait.next(), branch.data);
    }
}
