package dev.continuum.provider.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.testing.ScriptedProvider;
import dev.continuum.provider.testing.TestHttp;
import dev.continuum.telemetry.testing.DashboardQueries;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderLauncherTest {

    private static final Set<String> OPTIONS = Set.of("--port", "--base-path", "--state");
    private static final Set<String> FLAGS = Set.of("--embedded-broker");

    @Test
    void shouldReadOptionsInBothSpellingsAndFlagsWithoutAValue() {
        Arguments a = Arguments.parse(new String[] {"--embedded-broker", "--port", "9000", "--base-path=/ap/"}, OPTIONS, FLAGS);

        assertThat(a.flag("--embedded-broker")).isTrue();
        assertThat(a.port("--port", 1)).isEqualTo(9000);
        assertThat(a.basePath("--base-path", "/x")).isEqualTo("/ap");
        assertThat(a.path("--state")).isEmpty();
    }

    @Test
    void shouldUseTheDefaultsWhenAnOptionIsNotGiven() {
        Arguments a = Arguments.parse(new String[0], OPTIONS, FLAGS);

        assertThat(a.flag("--embedded-broker")).isFalse();
        assertThat(a.port("--port", 8093)).isEqualTo(8093);
        assertThat(a.basePath("--base-path", "/")).isEmpty();
        assertThat(a.path("--state").orElse(Path.of("d"))).isEqualTo(Path.of("d"));
    }

    @Test
    void shouldNameTheOptionThatIsUnknownMissingItsValueOrOutOfRange() {
        assertThatThrownBy(() -> Arguments.parse(new String[] {"--prot", "1"}, OPTIONS, FLAGS)).hasMessageContaining("--prot");
        assertThatThrownBy(() -> Arguments.parse(new String[] {"--state"}, OPTIONS, FLAGS))
                .hasMessageContaining("missing value for --state");
        assertThatThrownBy(() -> Arguments.parse(new String[] {"--port", "70000"}, OPTIONS, FLAGS).port("--port", 1))
                .hasMessageContaining("--port must be a number from 0 to 65535");
    }

    @Test
    void shouldReturnNoArgumentsWhenHelpIsAskedFor() {
        assertThat(Arguments.parse(new String[] {"--port", "1", "--help"}, OPTIONS, FLAGS)).isNull();
        assertThat(Arguments.parse(new String[] {"-h"}, OPTIONS, FLAGS)).isNull();
    }

    @Test
    void shouldServeTheMountedRoutesAndAPlainHealthCheck() {
        int port = ProviderLauncher.serve("continuum-test-provider", "127.0.0.1", 0, (vertx, router) -> {
            router.get("/hello").handler(rc -> rc.end("hi"));
            return null;
        });

        assertThat(TestHttp.get("http://127.0.0.1:" + port + "/hello").text()).isEqualTo("hi");
        assertThat(TestHttp.get("http://127.0.0.1:" + port + "/health").text()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldKeepAHealthCheckTheProviderMountedItself() {
        int port = ProviderLauncher.serve("continuum-test-provider", "127.0.0.1", 0, (vertx, router) -> {
            router.get("/health").handler(rc -> rc.end("{\"status\":\"UP\",\"devices_online\":2}"));
            return null;
        });

        assertThat(TestHttp.get("http://127.0.0.1:" + port + "/health").text()).contains("devices_online");
    }

    @Test
    void shouldServeEachProvidersFinishedActionsByStatusForTheDashboard() throws Exception {
        int port = ProviderLauncher.serve("continuum-test-provider", "127.0.0.1", 0, (vertx, router) ->
                ActionProviderServer.mount(router, "/providers/metered", new ScriptedProvider(),
                        ProviderServerOptions.of(vertx).withCallerResolver(rc -> Caller.of("urn:alice")))::close);
        String base = "http://127.0.0.1:" + port;
        TestHttp.post(base + "/providers/metered/run", "{\"request_id\":\"m-1\",\"body\":{\"message\":\"m\",\"mode\":\"crash\"}}");
        TestHttp.post(base + "/providers/metered/run", "{\"request_id\":\"m-2\",\"body\":{\"message\":\"m\"}}");

        // unauthenticated, as the engine's and the planner's: Prometheus scrapes without a token
        String served = TestHttp.get(base + "/q/metrics").text();
        assertThat(served).contains("continuum_provider_actions_total{provider=\"metered\",status=\"FAILED\",} 1.0",
                "continuum_provider_actions_total{provider=\"metered\",status=\"SUCCEEDED\",} 1.0");
        // deploy/grafana/continuum.json, row "Providers": what every provider serves (the SDK's metrics) is here
        Set<String> queried = DashboardQueries.metrics(Path.of("../.."), "Providers");
        assertThat(queried).contains("continuum_provider_actions_total");
        assertThat(queried).filteredOn(name -> name.startsWith("continuum_provider_"))
                .allSatisfy(name -> assertThat(served).containsPattern("(?m)^" + name + "[{ ]"));
    }
}
