package dev.continuum.edge.fleet.identity;

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

    @Test
    void shouldStillRefuseARevokedDeviceAndCredentialAfterARestart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        RevocationLog log = new RevocationLog(dir.resolve("revocations"));
        DeviceCredentials before = DeviceCredentials.fromSecret("operator secret for tests", Clock.systemUTC()).persistRevocations(log);
        String gw1 = before.exchange("gw-1", before.bootstrapToken("gw-1")).orElseThrow();
        String gw2 = before.exchange("gw-2", before.bootstrapToken("gw-2")).orElseThrow();
        before.revokeDevice("gw-1");
        before.revokeCredential(gw2);

        DeviceCredentials restarted = DeviceCredentials.fromSecret("operator secret for tests", Clock.systemUTC())
                .persistRevocations(new RevocationLog(dir.resolve("revocations")));

        assertThat(restarted.verify(gw1)).isEmpty();
        assertThat(restarted.exchange("gw-1", restarted.bootstrapToken("gw-1"))).isEmpty();
        assertThat(restarted.verify(gw2)).isEmpty();
        assertThat(restarted.exchange("gw-2", restarted.bootstrapToken("gw-2"))).isPresent();
    }

    @Test
    void shouldPickUpARevocationAnOperatorAppendedWhileRunning(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        DeviceCredentials running = DeviceCredentials.fromSecret("operator secret for tests", Clock.systemUTC())
                .persistRevocations(new RevocationLog(dir.resolve("revocations")));
        String gw1 = running.exchange("gw-1", running.bootstrapToken("gw-1")).orElseThrow();

        new RevocationLog(dir.resolve("revocations")).append("device", "gw-1"); // another process: the operator's command
        running.reloadRevocations();

        assertThat(running.verify(gw1)).isEmpty();
        new RevocationLog(dir.resolve("revocations")).append("reinstate", "gw-1");
        running.reloadRevocations();
        assertThat(running.verify(gw1)).contains("gw-1");
    }
}
