package dev.continuum.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Consent;
import dev.continuum.engine.support.SignedInCli;
import dev.continuum.engine.support.SignedInCli.Result;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/**
 * The {@code continuum} CLI against the real engine with sign-in on (real Keycloak, real PostgreSQL): each command as
 * a person types it, checked by what it prints and by what the engine then holds (docs/cli.md).
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class CliAgainstEngineTest {

    private static final String PERSON = "scientist";
    private static final String COLLEAGUE = "scientist2";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One Action on the built-in sleep provider: the run acts for its starter for a minute. */
    private static final String NAP = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Action\",\"ActionUrl\":\"${providers}/sleep\","
            + "\"Parameters\":{\"seconds\":60},\"ResultPath\":\"$.nap\",\"End\":true}}}";
    /** Calls the sleep provider every few seconds until its input has "stop": a run that soon meets a revoked grant. */
    private static final String NAPS = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Action\",\"ActionUrl\":\"${providers}/sleep\","
            + "\"Parameters\":{\"seconds\":1},\"ResultPath\":\"$.nap\",\"Next\":\"Again\"},\"Again\":{\"Type\":\"Choice\","
            + "\"Choices\":[{\"Variable\":\"$.stop\",\"IsPresent\":true,\"Next\":\"Finish\"}],\"Default\":\"Rest\"},"
            + "\"Rest\":{\"Type\":\"Wait\",\"Seconds\":1,\"Next\":\"Nap\"},\"Finish\":{\"Type\":\"Pass\",\"End\":true}}}";
    private static final String DOUBLER = "{\"StartAt\":\"Double\",\"States\":{\"Double\":{\"Type\":\"ExpressionEval\","
            + "\"Parameters\":{\"doubled.=\":\"n * 2\"},\"ResultPath\":\"$.result\",\"End\":true}}}";
    /** Fails unless its input says ok: the run to redrive with edited input. */
    private static final String CHECKED = "{\"StartAt\":\"Check\",\"States\":{\"Check\":{\"Type\":\"Choice\",\"Choices\":[{"
            + "\"Variable\":\"$.ok\",\"BooleanEquals\":true,\"Next\":\"Done\"}],\"Default\":\"NotOk\"},"
            + "\"Done\":{\"Type\":\"Pass\",\"End\":true},\"NotOk\":{\"Type\":\"Fail\",\"Error\":\"NotOk\",\"Cause\":\"ok was not true\"}}}";

    @AfterEach
    void revokeWhatTheTestGranted() {
        String person = Tokens.of(PERSON);
        List<String> active = as(person).when().get("/grants").then().statusCode(200).extract()
                .path("grants.findAll { it.status == 'ACTIVE' }.id");
        active.forEach(id -> as(person).when().delete("/grants/" + id).then().statusCode(204));
    }

    private static String pass(String result) {
        return "{\"StartAt\":\"Say\",\"States\":{\"Say\":{\"Type\":\"Pass\",\"Result\":\"" + result + "\",\"ResultPath\":\"$.said\",\"End\":true}}}";
    }

    private static String deploy(SignedInCli cli, String name, String definition) {
        Result deployed = cli.run("deploy", cli.file(name + ".json", definition).toString());
        assertThat(deployed.exitCode()).as(deployed.err()).isZero();
        return deployed.lastLine();
    }

    private static JsonNode json(Result result) {
        assertThat(result.exitCode()).as(result.err()).isZero();
        try {
            return JSON.readTree(result.out());
        } catch (Exception e) {
            throw new AssertionError("not one JSON document on stdout: " + result.out(), e);
        }
    }

    @Test
    void shouldWalkTheOfflineConsentListTheGrantWithItsRunAndRevokeItOnLogoutEverywhere() {
        SignedInCli cli = SignedInCli.as(PERSON);
        SignedInCli.Running login = cli.start("login", "--offline");
        String address = awaitConsentAddress(login);
        assertThat(Consent.finish(address, PERSON).statusCode()).isEqualTo(200);
        Result given = login.await();

        assertThat(given.exitCode()).as(given.err()).isZero();
        assertThat(given.out()).contains("act as " + PERSON).contains("until you revoke it").contains("Offline access given: grant ");
        String grant = as(Tokens.of(PERSON)).when().get("/grants").then().statusCode(200)
                .body("grants[0].status", equalTo("ACTIVE")).extract().path("grants[0].id");
        assertThat(given.out()).contains(grant);

        String run = cli.run("start", deploy(cli, "naps", NAPS)).lastLine();
        Result listed = cli.run("grants");
        assertThat(listed.out()).contains(grant + "  ACTIVE").contains("  run " + run);
        assertThat(json(cli.run("grants", "--output", "json")).at("/grants/0/runs/0").asText()).isEqualTo(run);

        Result out = cli.run("logout", "--everywhere");

        assertThat(out.exitCode()).as(out.err()).isZero();
        assertThat(out.out()).contains("Revoked offline grant " + grant + "; 1 run(s) acting through it go INACTIVE")
                .contains("Signed out " + PERSON);
        as(Tokens.of(PERSON)).when().get("/grants").then().body("grants.find { it.id == '" + grant + "' }.status", equalTo("REVOKED"));
        assertThat(cli.signedIn()).isFalse();
        Tokens.awaitStatus(Tokens.of(PERSON), run, "INACTIVE");
        as(Tokens.of(PERSON)).when().get("/runs/" + run).then()
                .body("details.inactive_reason", org.hamcrest.Matchers.containsString("Access revoked by " + PERSON));
        as(Tokens.of(PERSON)).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    private static String awaitConsentAddress(SignedInCli.Running login) {
        return await("login prints a consent address").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    java.util.Optional<String> address = java.util.Arrays.stream(login.out().toString().split("\n"))
                            .filter(line -> line.startsWith("  http")).findFirst().map(String::strip);
                    if (address.isEmpty()) {
                        assertThat(login.exit()).as("login ended early: " + login.err()).isNotDone();
                    }
                    return address;
                }, java.util.Optional::isPresent).get();
    }

    @Test
    void shouldRevokeOneGrantSayingWhichRunsItStopsAndSayWhenItIsGone() {
        String grant = Consent.give(PERSON);
        SignedInCli cli = SignedInCli.as(PERSON);
        String run = cli.run("start", deploy(cli, "nap", NAP)).lastLine();

        assertThat(cli.run("grants", "revoke", grant).out())
                .isEqualTo("Revoked offline grant " + grant + "; 1 run(s) acting through it go INACTIVE at their next provider call\n");

        as(Tokens.of(PERSON)).when().get("/grants").then().body("grants.find { it.id == '" + grant + "' }.status", equalTo("REVOKED"));
        assertThat(cli.run("grants").out()).contains(grant + "  REVOKED").contains("revoked by " + PERSON);
        Result again = cli.run("grants", "revoke", grant);
        assertThat(again.exitCode()).isEqualTo(3);
        assertThat(again.err()).contains(grant);
        as(Tokens.of(PERSON)).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldShowAChildRunFromItsParentAndTheParentFromTheChild() {
        SignedInCli cli = SignedInCli.as(PERSON);
        String child = deploy(cli, "doubler", DOUBLER);
        String parent = deploy(cli, "parent", "{\"StartAt\":\"Call\",\"States\":{\"Call\":{\"Type\":\"Action\",\"ActionUrl\":"
                + "\"http://127.0.0.1:" + RestAssured.port + "/flows/" + child + "/actions\",\"Parameters\":{\"n.$\":\"$.n\"},"
                + "\"ResultPath\":\"$.child\",\"End\":true}}}");
        Result watched = cli.run("start", parent, "--input", "{\"n\":21}", "--watch");
        assertThat(watched.exitCode()).as(watched.out() + watched.err()).isZero();
        String parentRun = watched.out().lines().findFirst().orElseThrow().substring("run ".length());
        String childRun = json(cli.run("status", parentRun, "-o", "json")).at("/child_run_ids/0").asText();

        assertThat(cli.run("status", parentRun).out()).contains("children " + childRun);
        assertThat(cli.run("status", childRun).out()).contains("parent   " + parentRun + " (state Call)");
        assertThat(cli.run("runs", "--children-of", parentRun).out()).contains(childRun + "  SUCCEEDED  " + child);
    }

    @Test
    void shouldRedriveAFailedRunFromAChosenStateWithEditedInputAndUpdateItsLabelTagsAndRoles() {
        SignedInCli cli = SignedInCli.as(PERSON);
        String flow = deploy(cli, "checked", CHECKED);
        Result failed = cli.run("start", flow, "--input", "{\"ok\":false}", "--watch");
        assertThat(failed.exitCode()).isEqualTo(1);
        String run = failed.out().lines().findFirst().orElseThrow().substring("run ".length());

        Result redriven = cli.run("redrive", run, "--state", "Check", "--input", "{\"ok\":true}");

        assertThat(redriven.exitCode()).as(redriven.err()).isZero();
        assertThat(redriven.out()).startsWith(run + " ");
        assertThat(cli.run("watch", run).exitCode()).isZero();
        assertThat(cli.run("logs", run).out()).contains("FlowRedriven");
        assertThat(cli.run("redrive", run).exitCode()).as("a run that has not failed").isEqualTo(3);

        Result updated = cli.run("runs", "update", run, "--label", "second try", "--tag", "redriven", "--tag", "demo",
                "--manager", COLLEAGUE, "--monitor", "observer");

        assertThat(updated.exitCode()).as(updated.err()).isZero();
        assertThat(updated.out()).contains("label    second try").contains("tags     redriven, demo");
        as(Tokens.of(COLLEAGUE)).when().get("/runs/" + run).then().statusCode(200)
                .body("label", equalTo("second try")).body("run_managers", hasItems(COLLEAGUE))
                .body("run_monitors", hasItems("observer"));
        Result nothing = cli.run("runs", "update", run);
        assertThat(nothing.exitCode()).isEqualTo(2);
        assertThat(nothing.err()).contains("say what to change");
    }

    @Test
    void shouldListAFlowsVersionsStartAnOlderOneAndDeleteTheFlow() {
        SignedInCli cli = SignedInCli.as(PERSON);
        String flow = deploy(cli, "say", pass("one"));
        assertThat(cli.run("update", flow, cli.file("say2.json", pass("two")).toString()).out()).contains(flow + " version 2");

        Result versions = cli.run("flows", "versions", flow);
        assertThat(versions.out().lines()).hasSize(3);
        assertThat(versions.out()).contains("      2  ").contains("Changed definition").contains("      1  ").contains("Created the flow");
        assertThat(json(cli.run("flows", "versions", flow, "--output", "json")).at("/versions/0/version").asInt()).isEqualTo(2);

        Result older = cli.run("start", flow, "--version", "1", "--watch");
        assertThat(older.exitCode()).as(older.err()).isZero();
        assertThat(older.out()).contains("\"said\" : \"one\"");
        Result missing = cli.run("start", flow, "--version", "7");
        assertThat(missing.exitCode()).isEqualTo(3);
        assertThat(missing.err()).contains("/flow_version");

        assertThat(cli.run("flows", "delete", flow).out()).isEqualTo("deleted " + flow + "\n");
        as(Tokens.of(PERSON)).when().get("/flows/" + flow).then().statusCode(404);
    }

    @Test
    void shouldPrintOneJsonDocumentForScriptsAndAShellCompletionScript() {
        SignedInCli cli = SignedInCli.as(PERSON);
        String flow = json(cli.run("deploy", cli.file("json.json", pass("x")).toString(), "--output", "json")).path("id").asText();
        assertThat(json(cli.run("-o", "json", "flows")).path("flows").toString()).contains(flow);
        assertThat(json(cli.run("grants", "-o", "json")).has("grants")).isTrue();
        assertThat(json(cli.run("flows", "delete", flow, "-o", "json")).path("deleted").asText()).isEqualTo(flow);
        Result wrong = cli.run("flows", "--output", "yaml");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err()).contains("--output must be text or json, not 'yaml'");

        Result completion = cli.run("completion");
        assertThat(completion.out()).contains("complete -F").contains("grants").contains("redrive").contains("--children-of");
    }
}
