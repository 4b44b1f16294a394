package dev.continuum.flow.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.flow.testing.Fixtures;
import org.junit.jupiter.api.Test;

class InputSchemasTest {

    private static final String SCHEMA = """
            {'type': 'object', 'required': ['input'], 'properties': {'input': {'type': 'object',
             'required': ['source'], 'properties': {'source': {'type': 'object', 'required': ['path'],
             'properties': {'path': {'type': 'string'}, 'id': {'type': 'string', 'format': 'globus-collection'}}}}}}}""";

    @Test
    void shouldNameTheMissingInputFieldByItsPointer() {
        var issues = InputSchemas.validateInput(Fixtures.json(SCHEMA), Fixtures.json("{'input': {'source': {}}}"));

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.pointer()).isEqualTo("/input/source/path");
            assertThat(issue.message()).contains("path");
        });
    }

    @Test
    void shouldNameAFieldOfTheWrongType() {
        var issues = InputSchemas.validateInput(Fixtures.json(SCHEMA),
                Fixtures.json("{'input': {'source': {'path': 5, 'id': 'not-checked'}}}"));

        assertThat(issues).singleElement().satisfies(issue -> assertThat(issue.pointer()).isEqualTo("/input/source/path"));
    }

    @Test
    void shouldAcceptAConformingInputWithUnknownGlobusFormats() {
        assertThat(InputSchemas.validateInput(Fixtures.json(SCHEMA),
                Fixtures.json("{'input': {'source': {'path': '/p', 'id': 'anything'}}}"))).isEmpty();
        assertThat(InputSchemas.checkSchema(Fixtures.json(SCHEMA))).isEmpty();
    }

    @Test
    void shouldRefuseASchemaThatIsNotJsonSchema() {
        assertThat(InputSchemas.checkSchema(Fixtures.json("{'type': 'blob'}"))).isNotEmpty();
        assertThat(InputSchemas.checkSchema(Fixtures.json("{'required': 'name'}")))
                .anySatisfy(issue -> assertThat(issue.pointer()).isEqualTo("/required"));
        assertThat(InputSchemas.checkSchema(Fixtures.json("[1]"))).isNotEmpty();
    }
}
