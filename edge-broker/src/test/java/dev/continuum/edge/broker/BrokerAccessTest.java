package dev.continuum.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The storage half's topics (ADR 0007) under the rules of ADR 0011; the gateway link's are tested on a real broker. */
class BrokerAccessTest {

    private final Topics topics = new Topics("root");
    private final BrokerAccess access = BrokerAccess.forSecret(topics,
            DeviceCredentials.fromSecret("a secret for the tests", Clock.systemUTC()), "a secret for the tests");

    @Test
    void shouldLetTheStorageHalfServeItsOwnRequestsAndAnswerOnReplyTopics() {
        assertThat(access.maySubscribe("gw-1", "gw-1.storage", "root/devices/gw-1/storage/requests")).isTrue();
        assertThat(access.mayPublish("gw-1", "gw-1.storage", "root/devices/gw-1/storage/status")).isTrue();
        assertThat(access.mayPublish("gw-1", "gw-1.storage", "root/storage-replies/transfer-1234")).isTrue();
    }

    @Test
    void shouldKeepTheStorageHalfOutOfOtherDevicesAndReplies() {
        assertThat(access.maySubscribe("gw-1", "gw-1.storage", "root/devices/gw-2/storage/requests")).isFalse();
        assertThat(access.maySubscribe("gw-1", "gw-1.storage", "root/storage-replies/transfer-1234")).isFalse();
        assertThat(access.maySubscribe("gw-1", "gw-1.storage", "root/storage-replies/#")).isFalse();
        assertThat(access.maySubscribe("gw-1", "gw-1.storage", "gw-1.storage/ready")).isFalse();
        assertThat(access.mayPublish("gw-1", "gw-1.storage", "root/devices/gw-2/storage/requests")).isFalse();
        assertThat(access.mayPublish("gw-1", "gw-1.storage", "root/devices/gw-1/results")).isFalse();
    }

    @Test
    void shouldKeepTheGatewayLinkOffTheStorageTopics() {
        assertThat(access.maySubscribe("gw-1", "gw-1", "root/devices/gw-1/storage/requests")).isFalse();
        assertThat(access.mayPublish("gw-1", "gw-1", "root/storage-replies/transfer-1234")).isFalse();
        assertThat(access.mayPublish("gw-1", "gw-1", "root/register/gw-1")).isTrue();
        assertThat(access.mayPublish("gw-1", "gw-1", "root/register/gw-2")).isFalse();
    }

    @Test
    void shouldKeepDevicesOffThePlannersRePlacementPushes() {
        String pushes = topics.replacements("continuum-inference");
        for (String client : new String[] {"gw-1", "gw-1.storage"}) {
            assertThat(access.maySubscribe("gw-1", client, pushes)).as(client).isFalse();
            assertThat(access.maySubscribe("gw-1", client, "root/placement/#")).as(client).isFalse();
            assertThat(access.mayPublish("gw-1", client, pushes)).as(client).isFalse();
        }
        assertThat(access.mayPublish(BrokerAccess.OPERATOR, "planner", pushes)).isTrue();
        assertThat(access.maySubscribe(BrokerAccess.OPERATOR, "continuum-inference", pushes)).isTrue();
    }
}
