package dev.continuum.edge.fleet;

import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.CredentialGrant;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import java.util.logging.Logger;

/** The cloud end of registration: answers each gateway's bootstrap token with a device credential (or a refusal). */
public final class Registrar {

    private static final Logger LOG = Logger.getLogger(Registrar.class.getName());

    private final MqttLink link;
    private final Topics topics;
    private final DeviceCredentials credentials;

    public Registrar(MqttLink link, Topics topics, DeviceCredentials credentials) {
        this.link = link;
        this.topics = topics;
        this.credentials = credentials;
    }

    public void attach() {
        link.subscribe(topics.allRegistrations(), 1, this::onRegistration);
    }

    private void onRegistration(MqttLink.Incoming message) {
        message.ack();
        String topicDevice = topics.deviceIdOf(message.topic());
        Registration r;
        try {
            r = Wire.decode(message.payload(), Registration.class);
            Topics.checkId(topicDevice);
        } catch (RuntimeException e) {
            return;
        }
        if (!topicDevice.equals(r.deviceId())) {
            return; // a device may only register itself
        }
        CredentialGrant grant = credentials.exchange(r.deviceId(), r.bootstrapToken())
                .map(c -> new CredentialGrant(r.nonce(), c, null))
                .orElseGet(() -> {
                    LOG.warning(() -> "refused registration of " + r.deviceId());
                    return new CredentialGrant(r.nonce(), null, "bootstrap token refused or device revoked");
                });
        link.publish(topics.credential(r.deviceId()), Wire.encode(grant), false);
    }
}
