package dev.continuum.engine.hostile;

import dev.continuum.engine.hostile.OpenApiOperations.Op;
import dev.continuum.engine.support.RateLimitedAuthOn;
import dev.continuum.engine.support.TokenPool;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.continuum.engine.hostile.HostileInputApiTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint × every role, generated from /q/openapi (each operation's security and x-continuum-access): anonymous
 * callers get 401 except on the deliberately public operations; a user with no role on a flow, run or trigger — an
 * administrator of the realm included — gets the same 404 as for an id that does not exist (no existence leak); a
 * weaker role than the operation needs gets 403; the needed role or a stronger one is let in (not 401, 403, or the
 * resource's 404). Access is decided before the body is read: with an empty or an unusable body ({@code {}}) a
 * stranger still gets 404 and a weaker role 403, never a 400 that would answer before asking who calls. Real
 * Keycloak tokens for scientist (owner), scientist2 (the role holder) and admin.
 */
@QuarkusTest
@TestProfile(RateLimitedAuthOn.class)
class EndpointAccessApiTest {

    /** The roles of each kind of resource, weakest first, and the role list in its create body that grants each. */
    static final Map<String, Map<String, String>> ROLES = Map.of(
            "flow", ordered("view", "flow_viewers", "start", "flow_starters", "administer", "flow_administrators", "own", "flow_owners"),
            "run", ordered("monitor", "run_monitors", "manage", "run_managers"),
            "trigger", ordered("view", "viewers", "administer", "administrators"));

    static Http http;
    static OpenApiOperations api;
    static TokenPool owner;
    static TokenPool other;
    static TokenPool realmAdmin;
    static String flowForTriggers;

    /** Once, before the first test: RestAssured knows the engine's port only from then on. */
    @BeforeEach
    void signIn() {
        if (http != null) {
            return;
        }
        http = new Http(RestAssured.port);
        api = OpenApiOperations.fetch(http.base());
        owner = new TokenPool("scientist");
        other = new TokenPool("scientist2");
        realmAdmin = new TokenPool("admin");
    }

    @Test
    void shouldRefuseAnonymousCallersEverywhereButTheDeliberatelyPublicOperations() {
        List<String> failures = new ArrayList<>();
        List<String> open = new ArrayList<>();
        for (Op op : api.operations()) {
            Http.Answer answer = call(op, null, Map.of("flowId", uuid(), "runId", uuid(), "id", uuid(), "stateName", "A", "token", "x"));
            boolean challenged = answer.status() == 401 && answer.header().orElse("").startsWith("Bearer") && answer.isProblem();
            if (op.isPublic()) {
                open.add(op + " (" + op.access() + ")");
                // its own credential may be refused (a webhook's signature: 401), but not for want of a bearer token
                boolean askedForBearer = challenged && answer.json().path("detail").asText().contains("Authorization: Bearer");
                if (op.bearerRequired() || askedForBearer) {
                    failures.add(op + " is documented public but asked for a bearer token: " + answer);
                }
            } else if (!challenged || !op.bearerRequired()) {
                failures.add(op + " let an anonymous caller past the bearer check or is not documented as needing one: " + answer);
            }
        }
        System.out.println("EndpointAccessApiTest: " + api.operations().size() + " operations, public: " + open);
        assertThat(failures).isEmpty();
        assertThat(open).as("what is public is decided, not drifted into").hasSize(5);
    }

    @Test
    void shouldLetEachRoleDoExactlyWhatTheDocumentSaysAndHideResourcesFromEveryoneElse() {
        flowForTriggers = create("flow", null, null);
        List<String> failures = new ArrayList<>();
        int checks = 0;
        // destructive operations last, so the fixtures they remove are not needed after them
        List<Op> ops = new ArrayList<>(api.operations());
        ops.sort(Comparator.comparing(op -> op.method().equals("DELETE") || op.path().endsWith("/release")));
        Map<String, Map<String, String>> byRole = new HashMap<>();
        Map<String, String> strangers = new HashMap<>();
        for (Op op : ops) {
            if (op.resourceKind().isEmpty()) {
                if (!op.isPublic()) {
                    checks++;
                    Http.Answer answer = call(op, other.next(), Map.of());
                    if (answer.status() == 401 || answer.status() == 403) {
                        failures.add("signed-in " + op + " refused a signed-in user: " + answer);
                    }
                }
                continue;
            }
            String kind = op.resourceKind().get();
            String needed = op.requiredRole().orElseThrow();
            Map<String, String> levels = ROLES.get(kind);
            assertThat(levels).as("%s names an unknown role %s", op, op.access()).containsKey(needed);
            String hidden = strangers.computeIfAbsent(kind, k -> create(k, null, null));
            Http.Answer missing = call(op, other.next(), ids(kind, uuid()));
            if (missing.status() != 404 || !missing.isProblem()) {
                failures.add(op + " on an id that does not exist: " + missing);
            }
            for (TokenPool stranger : List.of(other, realmAdmin)) {
                for (byte[] body : unusableBodies(op)) {
                    checks++;
                    Http.Answer answer = call(op, stranger.next(), ids(kind, hidden), body);
                    if (answer.status() != missing.status() || !answer.title().equals(missing.title())) {
                        failures.add(op + " told a user with no role that it exists (body " + shown(body) + "): " + answer
                                + " (an unknown id gives " + missing + ")");
                    }
                }
            }
            int neededRank = List.copyOf(levels.keySet()).indexOf(needed);
            int rank = 0;
            for (String role : levels.keySet()) {
                String resource = byRole.computeIfAbsent(kind, k -> new HashMap<>())
                        .computeIfAbsent(role, r -> create(kind, levels.get(r), "scientist2"));
                if (rank < neededRank) {
                    // the role check comes first: whatever the body, a weaker role hears 403, not what is wrong with it
                    for (byte[] body : unusableBodies(op)) {
                        checks++;
                        Http.Answer answer = call(op, other.next(), ids(kind, resource), body);
                        if (answer.status() != 403) {
                            failures.add(op + " (needs " + needed + ") let a holder of " + role + " in, hid it or read the body "
                                    + shown(body) + " first: " + answer);
                        }
                    }
                } else {
                    checks++;
                    Http.Answer answer = call(op, other.next(), ids(kind, resource));
                    if (refused(answer, missing)) {
                        failures.add(op + " (needs " + needed + ") refused a holder of " + role + ": " + answer);
                    }
                }
                rank++;
            }
            checks++;
            Http.Answer mine = call(op, owner.next(), ids(kind, hidden));
            if (refused(mine, missing)) {
                failures.add(op + " refused the owner: " + mine);
            }
        }
        System.out.println("EndpointAccessApiTest: " + checks + " endpoint × role × body checks");
        assertThat(failures).isEmpty();
    }

    private static boolean refused(Http.Answer answer, Http.Answer missing) {
        return answer.status() == 401 || answer.status() == 403 || answer.status() >= 500
                || (answer.status() == 404 && answer.title().equals(missing.title()));
    }

    /** A flow, run or trigger of the scientist; {@code roleList} (if any) names {@code holder} in it. */
    private static String create(String kind, String roleList, String holder) {
        String roles = roleList == null ? "" : ",\"" + roleList + "\":[\"" + holder + "\"]";
        return switch (kind) {
            // its runs wait on a form in state Ask, so the form endpoints have one to show and take
            case "flow" -> http.send("POST", "/flows", owner.next(), "application/json", utf8("{\"title\":\"access\",\"definition\":"
                    + "{\"StartAt\":\"Ask\",\"States\":{\"Ask\":{\"Type\":\"Action\",\"ActionUrl\":"
                    + "\"https://actions.continuum.dev/user_input\",\"Parameters\":{\"title\":\"ok?\",\"schema\":{\"type\":\"object\"}},"
                    + "\"WaitTime\":86400,\"End\":true}}}" + roles + "}"), null)
                    .json().path("id").asText();
            case "run" -> http.send("POST", "/flows/" + flowForTriggers + "/run", owner.next(), "application/json",
                    utf8("{\"body\":{}" + roles + "}"), null).json().path("run_id").asText();
            case "trigger" -> http.send("POST", "/triggers", owner.next(), "application/json", utf8("{\"title\":\"access\","
                    + "\"source\":{\"type\":\"api\"},\"flow_id\":\"" + flowForTriggers + "\"" + roles + "}"), null).json().path("id").asText();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static Map<String, String> ids(String kind, String id) {
        return Map.of(switch (kind) {
            case "flow" -> "flowId";
            case "run" -> "runId";
            default -> "id";
        }, id, "stateName", "Ask", "token", "x", "version", "1");
    }

    /** The operation with these path values and a body of the right media type (its content is not the point here). */
    private static Http.Answer call(Op op, String token, Map<String, String> values) {
        return call(op, token, values, op.bodyType().map(type -> type.equals("application/json") ? utf8("{}") : new byte[0]).orElse(null));
    }

    private static Http.Answer call(Op op, String token, Map<String, String> values, byte[] body) {
        String path = op.path();
        for (var param : op.in("path")) {
            path = path.replace("{" + param.name() + "}", values.getOrDefault(param.name(), uuid()));
        }
        return http.send(op.method(), path, token, op.bodyType().orElse(null), body, "WWW-Authenticate");
    }

    /** For an operation that takes a body: none at all, and a JSON object with none of its fields; else no body. */
    private static List<byte[]> unusableBodies(Op op) {
        if (op.bodyType().isEmpty()) {
            return java.util.Collections.singletonList(null);
        }
        return op.bodyType().get().equals("application/json") ? List.of(new byte[0], utf8("{}")) : List.of(new byte[0]);
    }

    private static String shown(byte[] body) {
        return body == null ? "(none)" : body.length == 0 ? "(empty)" : new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String uuid() {
        return UUID.randomUUID().toString();
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
