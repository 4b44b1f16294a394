package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.keycloak.KeycloakServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

/** What the engine says at start about its identity provider (the one line an operator reads). */
class IssuerProbeTest {

    @Test
    void shouldReportNothingWhenTheRealmAnswers() {
        assertThat(IssuerProbe.problem(KeycloakServer.shared().issuer())).isEmpty();
    }

    @Test
    void shouldSayTheRealmMayBeWrongWhenKeycloakAnswersButNotForThatRealm() {
        assertThat(IssuerProbe.problem(KeycloakServer.shared().issuer("no-such-realm")))
                .hasValueSatisfying(p -> assertThat(p).contains("HTTP 404").contains("realm name"));
    }

    @Test
    void shouldNameTheConnectionFailureWhenNothingListens() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThat(IssuerProbe.problem("http://127.0.0.1:" + closed + "/realms/continuum"))
                .hasValueSatisfying(p -> assertThat(p).contains("ConnectException"));
    }

    @Test
    void shouldSayWhenTheIssuerIsNotAUrl() {
        assertThat(IssuerProbe.problem("sso.example.org/realms/continuum")).isPresent();
    }
}
