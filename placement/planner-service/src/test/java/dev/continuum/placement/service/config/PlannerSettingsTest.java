package dev.continuum.placement.service.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The service's keys as the planner reads them at start-up (SmallRye Config, as Quarkus maps them). */
class PlannerSettingsTest {
    private static PlannerSettings settings(Map<String, String> keys) {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(PlannerSettings.class)
                .withSources(new PropertiesConfigSource(keys, "test", 500)).build();
        return config.getConfigMapping(PlannerSettings.class);
    }

    @Test
    void shouldRankInferenceSitesByTheMeanUnlessConfiguredOtherwise() {
        assertThat(PlannerProducers.config(settings(Map.of())).chooseBy()).isEqualTo("mean");
        assertThat(PlannerProducers.config(settings(Map.of("continuum.placement.inference.choose-by", "p90")))
                .chooseBy()).isEqualTo("p90");
    }

    @Test
    void shouldNameTheKeyOfAChoiceItCannotRead() {
        PlannerSettings bad = settings(Map.of("continuum.placement.inference.choose-by", "p900"));

        assertThatThrownBy(() -> PlannerProducers.config(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("continuum.placement.inference.choose-by=p900: expected mean or a quantile p50 … p99");
    }
}
