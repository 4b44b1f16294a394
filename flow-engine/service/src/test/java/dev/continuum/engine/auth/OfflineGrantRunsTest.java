package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Consent;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.TokenRecorderRoutes;
import dev.continuum.engine.support.TokenRecorderRoutes.Received;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/**
 * A run acting for a person rests on the offline grant the person gave the engine once (ADR 0005): it keeps calling
 * providers with that person's tokens after they signed out and past the SSO session maximum, and stops at the next
 * call once the grant is revoked at the engine or in Keycloak. Against the real Keycloak, in real time.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class OfflineGrantRunsTest {

    private static final String PERSON = "scientist";
    /** Watches the runs (run_monitors), so the person need not sign in again while their run goes on. */
    private static final String WATCHER = "scientist2";

    private final KeycloakAdmin keycloak = new KeycloakAdmin(KeycloakServer.shared());

    @BeforeEach
    void freshRecorder() {
        TokenRecorderRoutes.RECEIVED.clear();
        TokenRecorderRoutes.DONE.set(false);
    }

    @AfterEach
    void revokeWhatTheTestGranted() {
        TokenRecorderRoutes.DONE.set(true);
        keycloak.updateRealm("{\"ssoSessionMaxLifespan\":36000,\"ssoSessionIdleTimeout\":1800,\"accessTokenLifespan\":300}");
        String person = Tokens.of(PERSON);
        List<String> active = as(person).when().get("/grants").then().statusCode(200).extract()
                .path("grants.findAll { it.status == 'ACTIVE' }.id");
        active.forEach(id -> as(person).when().delete("/grants/" + id).then().statusCode(204));
    }

    /** Calls the token recorder every {@code seconds} until the test says done. */
    static String loopFlow(int seconds) {
        return "{\"StartAt\":\"Call\",\"States\":{"
                + "\"Call\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("tokens") + "\",\"Parameters\":{},"
                + "\"ResultPath\":\"$.last\",\"Next\":\"Enough\"},"
                + "\"Enough\":{\"Type\":\"Choice\",\"Choices\":[{\"Variable\":\"$.last.details.done\",\"BooleanEquals\":true,"
                + "\"Next\":\"Finish\"}],\"Default\":\"Nap\"},"
                + "\"Nap\":{\"Type\":\"Wait\",\"Seconds\":" + seconds + ",\"Next\":\"Call\"},"
                + "\"Finish\":{\"Type\":\"Pass\",\"End\":true}}}";
    }

    static String startWatched(String token, String definition) {
        String flow = DelegatedRunsTest.publish(token, definition);
        return as(token).body("{\"body\":{},\"run_monitors\":[\"" + WATCHER + "\"]}").when().post("/flows/" + flow + "/run")
                .then().log().ifValidationFails().statusCode(201).extract().path("run_id");
    }

    /** Polls as the watcher with a new token each time: tokens may live only seconds in these tests. */
    static void awaitStatus(String runId, String wanted, Duration atMost) {
        await("run " + runId + " reaches " + wanted).atMost(atMost).pollInterval(Duration.ofMillis(300))
                .until(() -> as(Tokens.of(WATCHER)).when().get("/runs/" + runId).then().statusCode(200).extract()
                        .<String>path("status"), equalTo(wanted));
    }

    static void awaitCalls(int atLeast) {
        await(atLeast + " provider calls recorded").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(TokenRecorderRoutes.RECEIVED).hasSizeGreaterThanOrEqualTo(atLeast));
    }

    @Test
    void shouldKeepCallingProvidersWithThePersonsTokensAfterSignOutAndPastTheSsoMaximum() throws InterruptedException {
        Duration ssoMax = Duration.ofSeconds(20);
        keycloak.updateRealm("{\"ssoSessionMaxLifespan\":" + ssoMax.toSeconds() + ",\"ssoSessionIdleTimeout\":"
                + ssoMax.toSeconds() + ",\"accessTokenLifespan\":10}");
        Consent.give(PERSON);
        Instant consented = Instant.now();
        String run = startWatched(Tokens.of(PERSON), loopFlow(6));

        keycloak.endSignInSessions(PERSON);
        // the period under test: the run goes on by itself in real time past the SSO maximum (Keycloak's clock, not ours)
        Duration rest = Duration.between(Instant.now(), consented.plus(ssoMax.multipliedBy(3)));
        Thread.sleep(Math.max(0, rest.toMillis()));
        TokenRecorderRoutes.DONE.set(true);
        awaitStatus(run, "SUCCEEDED", Duration.ofSeconds(30));

        List<Received> received = List.copyOf(TokenRecorderRoutes.RECEIVED);
        assertThat(received.stream().filter(r -> r.at().isAfter(consented.plus(ssoMax.multipliedBy(2))))).hasSizeGreaterThanOrEqualTo(3);
        String subject = keycloak.userId(PERSON);
        for (Received call : received) {
            JwtClaims claims = JwtClaims.readUnverified(call.token());
            assertThat(claims.subject()).as("subject of the token received at %s", call.at()).isEqualTo(subject);
            assertThat(claims.audience()).as("audience").contains("continuum-provider-builtin");
            assertThat(claims.expiresAt().orElseThrow()).as("expiry of the token received at %s", call.at()).isAfter(call.at());
        }
    }

    @Test
    void shouldStopAtTheNextCallWhenThePersonRevokesTheGrantAndResumeAfterANewConsent() {
        String grant = Consent.give(PERSON);
        String run = startWatched(Tokens.of(PERSON), loopFlow(1));
        awaitCalls(1);

        as(Tokens.of(PERSON)).when().delete("/grants/" + grant).then().statusCode(204);
        // once the DELETE has answered: a call already past its grant check when the DELETE began may still finish
        // (the whole suite once saw a token issued within the DELETE's second), none may start after it
        Instant revoked = Instant.now();
        awaitStatus(run, "INACTIVE", Duration.ofSeconds(30));

        as(Tokens.of(WATCHER)).when().get("/runs/" + run).then()
                .body("details.inactive_reason", containsString("Access revoked by " + PERSON));
        assertNoProviderCalledWithATokenDerivedAfter(revoked);
        resumeAfterANewConsent(run);
    }

    /**
     * Each call carries a token derived for it (issued within seconds of the call, so none outlives a revocation in a
     * cache), and none was derived after {@code revoked}: no provider was called through the revoked grant.
     */
    static void assertNoProviderCalledWithATokenDerivedAfter(Instant revoked) {
        for (Received call : TokenRecorderRoutes.RECEIVED) {
            long issued = JwtClaims.readUnverified(call.token()).json().path("iat").asLong();
            assertThat(issued).as("no token derived from the grant after it was revoked").isLessThanOrEqualTo(revoked.getEpochSecond());
            assertThat(call.at().getEpochSecond() - issued).as("age of the token received at %s", call.at()).isLessThanOrEqualTo(5);
        }
    }

    static void resumeAfterANewConsent(String run) {
        int before = TokenRecorderRoutes.RECEIVED.size();
        Consent.give(PERSON);
        TokenRecorderRoutes.DONE.set(true);
        as(Tokens.of(PERSON)).when().post("/runs/" + run + "/resume").then().statusCode(200);
        awaitStatus(run, "SUCCEEDED", Duration.ofSeconds(30));
        assertThat(TokenRecorderRoutes.RECEIVED).hasSizeGreaterThan(before);
    }

    @Test
    void shouldStopAtTheNextCallWhenAnAdministratorRevokesTheOfflineSessionInKeycloakAndResumeAfterANewConsent() {
        Consent.give(PERSON);
        String run = startWatched(Tokens.of(PERSON), loopFlow(1));
        awaitCalls(1);

        keycloak.revokeConsent(PERSON, "continuum-engine");
        Instant revoked = Instant.now();
        awaitStatus(run, "INACTIVE", Duration.ofSeconds(30));

        as(Tokens.of(WATCHER)).when().get("/runs/" + run).then()
                .body("details.inactive_reason", containsString("Access revoked by the identity provider"));
        assertNoProviderCalledWithATokenDerivedAfter(revoked);
        resumeAfterANewConsent(run);
    }

    @Test
    void shouldListThePersonsGrantsWithTheRunsActingThroughThemToThePersonOnly() {
        String grant = Consent.give(PERSON);
        String run = startWatched(Tokens.of(PERSON), loopFlow(1));

        as(Tokens.of(PERSON)).when().get("/grants").then().statusCode(200)
                .body("grants[0].id", equalTo(grant)).body("grants[0].status", equalTo("ACTIVE"))
                .body("grants[0].runs", hasItem(run));
        as(Tokens.of(WATCHER)).when().get("/grants").then().statusCode(200).body("grants.id", not(hasItem(grant)));
        as(Tokens.of(WATCHER)).when().delete("/grants/" + grant).then().statusCode(404);
        as(Tokens.of(PERSON)).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldRefuseAConsentFinishedBySomeoneElseThanThePersonWhoBeganIt() {
        var answer = Consent.signIn(PERSON, WATCHER);

        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.body()).contains("someone other than " + PERSON);
        as(Tokens.of(WATCHER)).when().get("/grants").then().statusCode(200).body("grants", org.hamcrest.Matchers.empty());
    }

    @Test
    void shouldRefuseAConsentCallbackWithAStateTheEngineNeverIssued() {
        io.restassured.RestAssured.given().queryParam("state", "made-up").queryParam("code", "x")
                .when().get("/grants/consent/callback").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].pointer", equalTo("/state"));
    }
}
