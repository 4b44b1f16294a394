package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.CredentialGrant;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.Wire;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device's login and registration, with its credential kept in the state directory. */
class CredentialsTest {

    @TempDir
    Path state;

    private final RecordingUplink uplink = new RecordingUplink();
    private final AtomicInteger grants = new AtomicInteger();

    private GatewayConfig config() {
        return GatewayConfig.of("gw-1", "127.0.0.1", 1883, state, "bootstrap-token");
    }

    private Credentials registered() {
        Credentials credentials = new Credentials(config(), grants::incrementAndGet);
        credentials.registerIfNeeded(uplink);
        Registration sent = uplink.registrations.getLast();
        credentials.onGrant(Wire.encode(new CredentialGrant(sent.nonce(), "device-credential", null)));
        return credentials;
    }

    @Test
    void shouldRegisterWithTheBootstrapTokenAndKeepTheGrantedCredentialForTheNextStart() {
        Credentials first = new Credentials(config(), grants::incrementAndGet);
        String before = first.brokerPassword();

        registered();
        Credentials afterRestart = new Credentials(config(), grants::incrementAndGet);
        afterRestart.registerIfNeeded(uplink);

        assertThat(before).isEqualTo("bootstrap-token");
        assertThat(uplink.registrations).singleElement().satisfies(r -> {
            assertThat(r.deviceId()).isEqualTo("gw-1");
            assertThat(r.bootstrapToken()).isEqualTo("bootstrap-token");
        });
        assertThat(afterRestart.credential()).contains("device-credential");
        assertThat(afterRestart.brokerPassword()).isEqualTo("device-credential");
        assertThat(grants).hasValue(1);
    }

    @Test
    void shouldIgnoreAGrantThatAnswersAnotherRegistration() {
        Credentials credentials = new Credentials(config(), grants::incrementAndGet);
        credentials.registerIfNeeded(uplink);

        credentials.onGrant(Wire.encode(new CredentialGrant("someone-else's-nonce", "stolen", null)));
        credentials.onGrant(Wire.encode(new CredentialGrant(uplink.registrations.getLast().nonce(), null, "bad token")));

        assertThat(credentials.credential()).isEmpty();
        assertThat(grants).hasValue(0);
    }

    @Test
    void shouldRegisterAgainWithTheBootstrapTokenWhenTheBrokerRefusesTheCredential() {
        Credentials credentials = registered();

        credentials.refused();
        credentials.registerIfNeeded(uplink);

        assertThat(credentials.brokerPassword()).isEqualTo("bootstrap-token");
        assertThat(uplink.registrations).hasSize(2);
        assertThat(new Credentials(config(), grants::incrementAndGet).credential()).as("forgotten on disk too").isEmpty();
    }

    @Test
    void shouldLogInWithAConfiguredPasswordWhateverItsCredential() {
        Credentials credentials = new Credentials(config().withBrokerPassword("operator's password"), grants::incrementAndGet);
        credentials.registerIfNeeded(uplink);
        credentials.onGrant(Wire.encode(new CredentialGrant(uplink.registrations.getLast().nonce(), "device-credential", null)));

        credentials.refused();

        assertThat(credentials.brokerPassword()).isEqualTo("operator's password");
        assertThat(credentials.credential()).as("a refusal of the operator's password is not the credential's fault")
                .contains("device-credential");
    }

    @Test
    void shouldNotRegisterWhileTheLinkIsDown() {
        Credentials credentials = new Credentials(config(), grants::incrementAndGet);
        uplink.down();

        credentials.registerIfNeeded(uplink);

        assertThat(uplink.registrations).isEmpty();
    }
}
