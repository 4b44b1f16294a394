package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.PythonProvider;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step of a real flow run by a provider written with the Python kit (action-providers/python/tests/effects_provider.py),
 * a process of its own, with sign-in on: the engine exchanges the starter's token for one whose audience is the provider,
 * the provider checks it against the realm's published keys. Then the crash test: the provider killed with SIGKILL in the
 * middle of the action and started again, and the run completes with one effect. Skipped, saying why, without python3 and
 * Debian's python3-jwt and python3-cryptography, unless CONTINUUM_REQUIRE_PYTHON is set (CI).
 */
@QuarkusTest
@TestProfile(PythonProviderFlowTest.WithPythonProvider.class)
@ExtendWith(PythonProvider.Usable.class)
class PythonProviderFlowTest {

    /** The engine's sign-in as {@link AuthOn}, and the Python provider's URL given the built-ins' audience and scope. */
    public static class WithPythonProvider extends AuthOn {
        /** Chosen once per JVM: Quarkus loads this profile in its own class loader too, and both must agree. */
        static final int PORT = PythonProvider.portOncePerJvm("python-provider-flow-test.port");
        static final String URL = "http://127.0.0.1:" + PORT + "/providers/effects";

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("continuum.auth.provider-audiences", config.get("continuum.auth.provider-audiences")
                    + "," + URL + "=>continuum-provider-builtin actions:builtin");
            return config;
        }
    }

    static Path dir;
    static PythonProvider provider;

    @BeforeAll
    static void startProvider() throws IOException {
        dir = Files.createTempDirectory("python-provider");
        provider = PythonProvider.start("tests/effects_provider.py", WithPythonProvider.PORT, dir, Map.of(
                "EFFECTS_FILE", dir.resolve("effects.tsv").toString(),
                "CONTINUUM_AUTH_ENABLED", "true",
                "CONTINUUM_AUTH_ISSUER", KeycloakServer.shared().issuer(),
                "CONTINUUM_PROVIDER_AUDIENCE", "continuum-provider-builtin",
                "CONTINUUM_PROVIDER_SCOPE", "actions:builtin"));
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.close();
        }
    }

    static String effectFlow(double seconds) {
        return "{\"StartAt\":\"Effect\",\"States\":{\"Effect\":{\"Type\":\"Action\",\"ActionUrl\":\"" + WithPythonProvider.URL
                + "\",\"Parameters\":{\"seconds\":" + seconds + "},\"WaitTime\":3600,\"ResultPath\":\"$.effect\",\"End\":true}}}";
    }

    List<String> effects() throws IOException {
        Path file = dir.resolve("effects.tsv");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    List<String> effectsOf(String actionId) throws IOException {
        return effects().stream().filter(line -> line.endsWith("\t" + actionId)).toList();
    }

    @Test
    void shouldRunAFlowStepThroughAPythonProviderThatChecksTheStartersToken() throws IOException {
        String scientist = Tokens.of("scientist");
        String run = DelegatedRunsTest.start(scientist, DelegatedRunsTest.publish(scientist, effectFlow(0.2)));

        awaitSucceeded(scientist, run);
        Map<String, Object> result = as(scientist).when().get("/runs/" + run).then().extract().path("details.output.effect");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) result.get("details");
        assertThat(details.get("caller")).as("the caller the provider read from its token").isEqualTo("scientist");
        assertThat(effectsOf((String) result.get("action_id"))).hasSize(1);
        // the provider checks tokens itself: none, or the engine's own API token (another audience), is refused
        given().body("{\"request_id\":\"x\",\"body\":{}}").post(WithPythonProvider.URL + "/run").then().statusCode(401)
                .contentType("application/problem+json");
        as(scientist).body("{\"request_id\":\"x\",\"body\":{}}").post(WithPythonProvider.URL + "/run").then().statusCode(401)
                .contentType("application/problem+json");
    }

    @Test
    void shouldCompleteTheRunWithOneEffectWhenThePythonProviderIsKilledMidActionAndRestarted() throws IOException {
        String scientist = Tokens.of("scientist");
        String run = DelegatedRunsTest.start(scientist, DelegatedRunsTest.publish(scientist, effectFlow(4)));
        DelegatedRunsTest.awaitLogged(scientist, run, "ActionStarted");
        long before = provider.pid();

        provider.kill();
        as(scientist).when().get("/runs/" + run).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("ACTIVE"));
        provider.restart();

        awaitSucceeded(scientist, run);
        Map<String, Object> result = as(scientist).when().get("/runs/" + run).then().extract().path("details.output.effect");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) result.get("details");
        assertThat(((Number) details.get("pid")).longValue()).as("finished by the restarted process").isNotEqualTo(before)
                .isEqualTo(provider.pid());
        assertThat(effectsOf((String) result.get("action_id"))).as("effects of the run's action").hasSize(1);
    }

    private static void awaitSucceeded(String token, String run) {
        try {
            Tokens.awaitStatus(token, run, "SUCCEEDED");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; run: " + as(token).when().get("/runs/" + run).asString()
                    + "\nprovider output:\n" + provider.tail(), e);
        }
    }
}
