package dev.continuum.flow.run;

import static dev.continuum.flow.run.InterpreterTest.interpreter;
import static dev.continuum.flow.run.InterpreterTest.only;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.testing.FakeProvider;
import dev.continuum.flow.testing.Fixtures;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.ValidationIssue;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A state that waits for a person's form: validation of the form, INACTIVE while waiting, the answer, the timeout. */
class HumanInputTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    static String flow(String schema) {
        return """
                {'StartAt': 'Ask', 'States': {
                  'Ask': {'Type': 'Action', 'ActionUrl': '%s', 'WaitTime': 600,
                    'Parameters': {'title': 'Approve', 'description.=': '\\"Copy \\" + input.path + \\"?\\"',
                      'schema': %s, 'selectable_by': ['bob']},
                    'ResultPath': '$.answer', 'Next': 'Done',
                    'Catch': [{'ErrorEquals': ['ActionTimeout'], 'ResultPath': '$.timedOut', 'Next': 'NoAnswer'}]},
                  'Done': {'Type': 'Pass', 'End': true},
                  'NoAnswer': {'Type': 'Fail', 'Error': 'NoAnswer'}}}""".formatted(FormAction.URL, schema);
    }

    static final String SCHEMA = "{'type': 'object', 'required': ['approved'], 'properties': {'approved': {'type': 'boolean'}}}";

    @Test
    void shouldReportABadFormSchemaAtItsPointerInTheFlow() {
        List<ValidationIssue> issues = new FlowValidator().validate(Fixtures.json(flow("{'type': 'objekt'}"))).issues();

        assertThat(issues).isNotEmpty().allSatisfy(issue -> {
            assertThat(issue.pointer()).isEqualTo("/States/Ask/Parameters/schema/type");
            assertThat(issue.message()).startsWith("The form's schema is not valid JSON Schema");
        });
    }

    @Test
    void shouldReportAFormWithoutSchemaAndUnknownParameters() {
        String definition = """
                {'StartAt': 'Ask', 'States': {'Ask': {'Type': 'Action', 'ActionUrl': '%s',
                  'Parameters': {'titel': 'x', 'selectable_by': 'bob'}, 'End': true}}}""".formatted(FormAction.URL);

        assertThat(new FlowValidator().validate(Fixtures.json(definition)).issues()).extracting(ValidationIssue::pointer)
                .containsExactlyInAnyOrder("/States/Ask/Parameters/titel", "/States/Ask/Parameters/schema",
                        "/States/Ask/Parameters/selectable_by");
    }

    @Test
    void shouldWaitInactiveShowingTheFormThenPlaceTheSubmissionAtResultPath() {
        Interpreter interpreter = interpreter(flow(SCHEMA));
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/data'}}"), FakeProvider.context(), T0);
        Effect.StartAction start = only(step.effects(), Effect.StartAction.class);
        assertThat(start.actionUrl()).isEqualTo(FormAction.URL);

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(start.token(),
                new ActionObservation("form-1", "INACTIVE", null, "Waiting for input")), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.INACTIVE);
        RunState stored = RunState.fromJson(step.state().toJson()); // what a restarted engine reads back
        assertThat(stored.pendingForms()).singleElement().satisfies(form -> {
            assertThat(form.stateName()).isEqualTo("Ask");
            assertThat(form.token()).isEqualTo(start.token());
            assertThat(form.form().path("description").asText()).isEqualTo("Copy /data?");
            assertThat(form.form().get("schema")).isEqualTo(Fixtures.json(SCHEMA));
            assertThat(form.expiresAt()).isEqualTo(T0.plusSeconds(600));
        });

        step = interpreter.apply(stored, new RunEvent.ActionPolled(start.token(),
                new ActionObservation("form-1", "SUCCEEDED", Fixtures.json("{'approved': true}"), "Submitted")), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().at("/answer/details"))
                .isEqualTo(Fixtures.json("{'approved': true}"));
        assertThat(step.state().pendingForms()).isEmpty();
    }

    @Test
    void shouldTimeOutAnUnansweredFormAfterWaitTimeSoCatchCanHandleIt() {
        Interpreter interpreter = interpreter(flow(SCHEMA));
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/data'}}"), FakeProvider.context(), T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token,
                new ActionObservation("form-1", "INACTIVE", null, "Waiting for input")), T0);
        assertThat(step.state().nextWakeAt()).contains(T0.plusSeconds(600));

        step = interpreter.apply(step.state(), new RunEvent.ActionPolled(token,
                new ActionObservation("form-1", "INACTIVE", null, "Waiting for input")), T0.plusSeconds(600));

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("NoAnswer");
        assertThat(step.log()).extracting(LogEntry::description)
                .anyMatch(text -> text.contains("waiting (INACTIVE) after its WaitTime of 600 seconds"));
    }
}
