package dev.continuum.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.engine.app.Driver;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** An engine started without {@code continuum.instance-id} (as tests start it) gets a name of its own, used everywhere. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class InstanceIdDefaultTest {

    @Inject
    Driver driver;

    @ConfigProperty(name = "continuum.instance-id")
    String instanceId;

    @ConfigProperty(name = "mp.messaging.incoming.trigger-mqtt.client-id")
    String triggerClientId;

    @Test
    void shouldConnectToTheBrokerUnderAClientIdOfThisProcessWhenNoInstanceIdIsSet() {
        assertThat(instanceId).matches("engine-[0-9a-f]{12}");
        assertThat(driver.instanceId()).isEqualTo(instanceId);
        assertThat(triggerClientId).isEqualTo("continuum-" + instanceId + "-triggers")
                .isNotEqualTo("continuum-engine-triggers");
    }
}
