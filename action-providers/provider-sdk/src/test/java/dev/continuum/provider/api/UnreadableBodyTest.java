package dev.continuum.provider.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnreadableBodyTest {

    record Item(String name, long sizeBytes) {}

    record Request(String id, List<Item> data) {}

    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static JsonProcessingException refusal(ObjectMapper json, String body) {
        return catchThrowableOfType(JsonProcessingException.class, () -> json.readValue(body, Request.class));
    }

    @Test
    void shouldNameAnUnknownFieldByItsPointer() {
        JsonProcessingException e = refusal(STRICT, "{\"id\":\"r\",\"data\":[{\"name\":\"a\",\"colour\":1}]}");

        Problem problem = UnreadableBody.problem(e);

        assertThat(problem.status()).isEqualTo(400);
        assertThat(problem.type()).isEqualTo("https://continuum.dev/problems/invalid");
        assertThat(problem.title()).isEqualTo("Invalid request body");
        assertThat(problem.detail()).isEqualTo("/data/0/colour 'colour' is not a known field.");
        assertThat(problem.errors()).containsExactly(new Problem.FieldError("/data/0/colour", "'colour' is not a known field."));
    }

    @Test
    void shouldNameAFieldOfTheWrongTypeByItsPointer() {
        JsonProcessingException e = refusal(STRICT, "{\"id\":\"r\",\"data\":[{\"name\":\"a\"},{\"sizeBytes\":\"big\"}]}");

        Problem problem = UnreadableBody.problem(e);

        assertThat(problem.errors()).containsExactly(new Problem.FieldError("/data/1/sizeBytes", "has the wrong type or shape."));
        assertThat(problem.detail()).isEqualTo("/data/1/sizeBytes has the wrong type or shape.");
    }

    @Test
    void shouldSayTheBodyIsNoJsonWithoutAPointerWhenItCannotBeParsed() {
        JsonProcessingException e = refusal(STRICT, "{\"id\": ");

        Problem problem = UnreadableBody.problem(e);

        assertThat(problem.errors()).singleElement().satisfies(error -> {
            assertThat(error.pointer()).isEmpty();
            assertThat(error.message()).startsWith("The body is not valid JSON: ");
        });
        assertThat(problem.detail()).isEqualTo(problem.errors().get(0).message());
    }

    @Test
    void shouldSayTheBodyIsTooDeepWhenItBreaksAStreamLimit() {
        ObjectMapper shallow = new ObjectMapper(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(2).build()).build());
        JsonProcessingException e = refusal(shallow, "{\"id\":\"r\",\"data\":[{\"name\":\"a\"}]}");

        String reason = UnreadableBody.reason(e);

        assertThat(reason).startsWith("is too large or too deeply nested: ");
    }

    @Test
    void shouldUseTheServicesOwnReasonWhenGiven() {
        JsonProcessingException e = refusal(STRICT, "{\"id\":\"r\",\"data\":[{\"name\":[7]}]}");

        Problem problem = UnreadableBody.problem(e, "holds text that cannot be stored.");

        assertThat(problem.detail()).isEqualTo("/data/0/name holds text that cannot be stored.");
    }
}
