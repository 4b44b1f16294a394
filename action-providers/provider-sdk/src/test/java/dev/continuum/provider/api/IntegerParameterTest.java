package dev.continuum.provider.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IntegerParameterTest {

    @Test
    void shouldReadAWholeNumberWithinTheBounds() {
        int value = IntegerParameter.parse("limit", "1000", 100, 1, 1000);

        assertThat(value).isEqualTo(1000);
    }

    @Test
    void shouldGiveTheFallbackWhenTheParameterIsNotGiven() {
        int value = IntegerParameter.parse("limit", null, 100, 1, 1000);

        assertThat(value).isEqualTo(100);
    }

    @Test
    void shouldRefuseAValueOutsideTheBoundsNamingTheParameterAndWhy() {
        assertThatThrownBy(() -> IntegerParameter.parse("limit", "0", 100, 1, 1000))
                .isInstanceOfSatisfying(IntegerParameter.Invalid.class, e -> {
                    assertThat(e.name()).isEqualTo("limit");
                    assertThat(e.reason()).isEqualTo("must be a number from 1 to 1000");
                    assertThat(e).hasMessage("limit must be a number from 1 to 1000, not 0");
                });
    }

    @Test
    void shouldRefuseTextThatIsNoWholeNumber() {
        for (String value : new String[] {"ten", "1.5", "", " 7", "99999999999"}) {
            assertThatThrownBy(() -> IntegerParameter.parse("--port", value, 8080, 0, 65535))
                    .as(value)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--port must be a number from 0 to 65535, not " + value);
        }
    }
}
