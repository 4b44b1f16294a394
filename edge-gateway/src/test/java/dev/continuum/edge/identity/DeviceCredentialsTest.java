package dev.continuum.edge.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import org.junit.jupiter.api.Test;

class DeviceCredentialsTest {

    private final DeviceCredentials credentials = DeviceCredentials.fromSecret("operator secret for tests", Clock.systemUTC());

    @Test
    void shouldIssueCredentialForGenuineBootstrapToken() {
        String credential = credentials.exchange("gw-1", credentials.bootstrapToken("gw-1")).orElseThrow();

        assertThat(credentials.verify(credential)).contains("gw-1");
        assertThat(credentials.verifyFor("gw-2", credential)).isFalse();
    }

    @Test
    void shouldRefuseBootstrapTokenOfAnotherDevice() {
        assertThat(credentials.exchange("gw-1", credentials.bootstrapToken("gw-2"))).isEmpty();
        assertThat(credentials.exchange("gw-1", "guess")).isEmpty();
    }

    @Test
    void shouldRefuseCredentialSignedWithAnotherSecret() {
        DeviceCredentials other = DeviceCredentials.fromSecret("someone else's secret", Clock.systemUTC());
        String forged = other.exchange("gw-1", other.bootstrapToken("gw-1")).orElseThrow();

        assertThat(credentials.verify(forged)).isEmpty();
    }

    @Test
    void shouldRefuseCredentialWhoseDeviceWasEdited() {
        String credential = credentials.exchange("gw-1", credentials.bootstrapToken("gw-1")).orElseThrow();
        String edited = credential.replace(".gw-1.", ".gw-9.");

        assertThat(credentials.verify(edited)).isEmpty();
    }

    @Test
    void shouldRefuseCredentialAndBootstrapOfRevokedDeviceUntilReinstated() {
        String credential = credentials.exchange("gw-1", credentials.bootstrapToken("gw-1")).orElseThrow();

        credentials.revokeDevice("gw-1");

        assertThat(credentials.verify(credential)).isEmpty();
        assertThat(credentials.exchange("gw-1", credentials.bootstrapToken("gw-1"))).isEmpty();
        credentials.reinstateDevice("gw-1");
        assertThat(credentials.exchange("gw-1", credentials.bootstrapToken("gw-1"))).isPresent();
    }

    @Test
    void shouldRefuseOneRevokedCredentialButAcceptAFreshOne() {
        String leaked = credentials.exchange("gw-1", credentials.bootstrapToken("gw-1")).orElseThrow();
        credentials.revokeCredential(leaked);
        String fresh = credentials.exchange("gw-1", credentials.bootstrapToken("gw-1")).orElseThrow();

        assertThat(credentials.verify(leaked)).isEmpty();
        assertThat(credentials.verify(fresh)).contains("gw-1");
    }
}
