package dev.continuum.engine.hostile;

import dev.continuum.engine.hostile.HostileRequests.Attack;
import dev.continuum.engine.support.RateLimitedAuthOn;
import dev.continuum.engine.support.TokenPool;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input, derived from the engine's own /q/openapi: every malformed request is refused with a 4xx RFC 9457
 * problem naming the offending field (never a 500, never a hang), memory stays bounded after the barrage, and a token
 * that sends too much is slowed down with 429 and Retry-After. The engine runs in this JVM, so its heap is ours to read.
 */
@QuarkusTest
@TestProfile(RateLimitedAuthOn.class)
class HostileInputApiTest {

    static Http http;
    static OpenApiOperations api;
    static TokenPool scientist;

    /** Once, before the first test: RestAssured knows the engine's port only from then on. */
    @BeforeEach
    void readTheDocument() {
        if (http != null) {
            return;
        }
        http = new Http(RestAssured.port);
        api = OpenApiOperations.fetch(http.base());
        scientist = new TokenPool("scientist");
    }

    @Test
    void shouldRefuseEveryHostileRequestDerivedFromTheOpenApiDocumentWithAProblemNamingTheField() {
        List<Attack> attacks = new HostileRequests(api, fixtures()).all();
        long heapBefore = heapAfterGc();
        Map<Integer, Integer> byStatus = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        long started = System.nanoTime();
        for (Attack attack : attacks) {
            Http.Answer answer = http.send(attack.method(), attack.pathAndQuery(), scientist.next(), attack.contentType(), attack.body(), null);
            byStatus.merge(answer.status(), 1, Integer::sum);
            problemWith(attack, answer).ifPresent(problem -> failures.add(attack + ": " + problem + " — got " + answer));
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        long heapAfter = heapAfterGc();
        System.out.printf("HostileInputApiTest: %d requests from %d operations of /q/openapi in %d s; answers by status %s; "
                        + "heap after GC %d MB before, %d MB after; load %s%n", attacks.size(), api.operations().size(), seconds,
                byStatus, heapBefore >> 20, heapAfter >> 20, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        assertThat(attacks).hasSizeGreaterThanOrEqualTo(150);
        assertThat(failures).isEmpty();
        // ~40 bodies of 10 MB were sent: none may be kept (each was refused before it was read)
        assertThat(heapAfter - heapBefore).isLessThan(64L << 20);
    }

    @Test
    void shouldSlowDownOneTokenWith429AndRetryAfterWhileAnotherTokenGoesOn() {
        String greedy = Tokens.of("scientist2");
        Http.Answer refused = null;
        for (int i = 0; i < RateLimitedAuthOn.BURST * 2 && refused == null; i++) {
            Http.Answer answer = http.send("GET", "/flows?limit=1", greedy, null, null, "Retry-After");
            if (answer.status() == 429) {
                refused = answer;
            } else {
                assertThat(answer.status()).as("request %d", i).isEqualTo(200);
            }
        }

        assertThat(refused).as("no 429 after %d requests with one token", RateLimitedAuthOn.BURST * 2).isNotNull();
        assertThat(refused.isProblem()).isTrue();
        assertThat(refused.json().path("status").asInt()).isEqualTo(429);
        assertThat(refused.header()).hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds)).isPositive());
        assertThat(http.send("GET", "/flows?limit=1", Tokens.of("scientist2"), null, null, null).status())
                .as("another token of the same user has its own allowance").isEqualTo(200);
    }

    /** What is wrong with {@code answer} as the refusal of {@code attack}, if anything. */
    static java.util.Optional<String> problemWith(Attack attack, Http.Answer answer) {
        if (answer.status() < 400 || answer.status() >= 500) {
            return java.util.Optional.of("not a 4xx");
        }
        if (answer.status() == 401 || answer.status() == 429) {
            return java.util.Optional.of("the token was refused, so the attack was not tried");
        }
        if (!answer.isProblem()) {
            return java.util.Optional.of("not application/problem+json");
        }
        if (answer.json().path("status").asInt() != answer.status() || answer.json().path("title").asText().isEmpty()) {
            return java.util.Optional.of("a problem without its status and title");
        }
        boolean mustName = answer.status() == 400 || answer.status() == 413;
        if (mustName && attack.pointer() != null && !answer.names(attack.pointer())) {
            return java.util.Optional.of("errors[].pointer does not name " + attack.pointer());
        }
        if (mustName && attack.pointer() == null && answer.json().path("errors").isEmpty()) {
            return java.util.Optional.of("no errors[] entry");
        }
        return java.util.Optional.empty();
    }

    /** A real flow, run and trigger of the scientist: attacks on one parameter keep the others valid. */
    static Map<String, String> fixtures() {
        String token = scientist.next();
        String flow = http.send("POST", "/flows", token, "application/json", utf8("{\"title\":\"hostile\",\"definition\":"
                + "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}}"), null).json().path("id").asText();
        String run = http.send("POST", "/flows/" + flow + "/run", scientist.next(), "application/json", utf8("{\"body\":{}}"), null)
                .json().path("run_id").asText();
        String trigger = http.send("POST", "/triggers", scientist.next(), "application/json", utf8("{\"title\":\"hostile\","
                + "\"source\":{\"type\":\"api\"},\"flow_id\":\"" + flow + "\"}"), null).json().path("id").asText();
        assertThat(List.of(flow, run, trigger)).allMatch(id -> id.length() == 36);
        return Map.of("flowId", flow, "runId", run, "id", trigger, "stateName", "Nap", "token", "not-a-callback-token", "version", "1",
                "operation", "preempt");
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
