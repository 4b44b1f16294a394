package dev.continuum.edge.broker;

import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Set;

/**
 * Who may connect to a broker Continuum starts, and which topics each may use (ADR 0011). Pure: the
 * embedded broker asks it through Moquette's hooks, an operator's Mosquitto gets the same rules as
 * {@code acl_file} patterns (docs/edge.md).
 * <ul>
 *   <li>{@link #OPERATOR} with the password derived from the operator secret: the cloud (inference
 *       provider, transfer provider): every topic.</li>
 *   <li>A device: user name = device id, password = its device credential or bootstrap token (checked
 *       by {@link DeviceCredentials}, so a revoked device is refused). Client id {@code <id>} is its
 *       gateway link, {@code <id>.storage} its storage half; each may use only its own topics, in the
 *       direction the protocol sends them.</li>
 *   <li>Anyone else, anonymous clients included: refused.</li>
 * </ul>
 */
public final class BrokerAccess {

    /** The cloud's user name; never a device id (those start with a letter or a digit). */
    public static final String OPERATOR = "_continuum";
    /** Client id suffix of a device's storage half (ADR 0007). */
    public static final String STORAGE_CLIENT_SUFFIX = ".storage";

    /** A gateway's own topics (under {@code <root>/devices/<id>/}) it may publish to; also {@link MosquittoAcl}'s. */
    static final Set<String> GATEWAY_PUBLISHES = Set.of("status", "heartbeat", "progress", "results", "files");
    /** ... and may subscribe to. */
    static final Set<String> GATEWAY_SUBSCRIBES = Set.of("tasks", "credential", "models", "watches");

    private final Topics topics;
    private final DeviceCredentials credentials;
    private final byte[] operatorPassword;

    public BrokerAccess(Topics topics, DeviceCredentials credentials, String operatorPassword) {
        this.topics = Objects.requireNonNull(topics, "topics");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.operatorPassword = operatorPassword.getBytes(StandardCharsets.UTF_8);
    }

    /** Access for a broker of the cloud holding {@code secret}: operator password and device keys both derived from it. */
    public static BrokerAccess forSecret(Topics topics, DeviceCredentials credentials, String secret) {
        return new BrokerAccess(topics, credentials, DeviceCredentials.brokerPassword(secret));
    }

    /** CONNECT: a known operator or device, and a device only under its own client ids. */
    public boolean mayConnect(String clientId, String username, byte[] password) {
        if (username == null || password == null || clientId == null) {
            return false;
        }
        if (username.equals(OPERATOR)) {
            return MessageDigest.isEqual(operatorPassword, password);
        }
        if (!clientId.equals(username) && !clientId.equals(username + STORAGE_CLIENT_SUFFIX)) {
            return false; // taking over another client's session would receive its queued messages
        }
        String secret = new String(password, StandardCharsets.UTF_8);
        return credentials.verifyFor(username, secret) || credentials.acceptsBootstrap(username, secret);
    }

    public boolean mayPublish(String username, String clientId, String topic) {
        if (OPERATOR.equals(username)) {
            return true;
        }
        if (isStorageHalf(username, clientId)) {
            // replies go to the asking cloud client's topic, whose name the device cannot know in advance
            return topic.equals(deviceTopic(username, "storage/status"))
                    || (topic.startsWith(topics.root() + "/storage-replies/") && oneLevelAfter(topics.root() + "/storage-replies/", topic));
        }
        if (isGateway(username, clientId)) {
            return topic.equals(topics.register(username)) || ownTopic(username, topic, GATEWAY_PUBLISHES);
        }
        return false;
    }

    /** SUBSCRIBE: {@code filter} is checked as written, so a wildcard reaching another device is refused. */
    public boolean maySubscribe(String username, String clientId, String filter) {
        if (OPERATOR.equals(username)) {
            return true;
        }
        if (isStorageHalf(username, clientId)) {
            return filter.equals(deviceTopic(username, "storage/requests"));
        }
        if (isGateway(username, clientId)) {
            return ownTopic(username, filter, GATEWAY_SUBSCRIBES);
        }
        return false;
    }

    private boolean ownTopic(String deviceId, String topic, Set<String> leaves) {
        String prefix = deviceTopic(deviceId, "");
        return topic.startsWith(prefix) && leaves.contains(topic.substring(prefix.length()));
    }

    private String deviceTopic(String deviceId, String leaf) {
        return topics.root() + "/devices/" + deviceId + "/" + leaf;
    }

    private static boolean oneLevelAfter(String prefix, String topic) {
        String rest = topic.substring(prefix.length());
        return !rest.isEmpty() && !rest.contains("/") && !rest.contains("+") && !rest.contains("#");
    }

    private static boolean isGateway(String username, String clientId) {
        return username != null && username.equals(clientId);
    }

    private static boolean isStorageHalf(String username, String clientId) {
        return username != null && clientId != null && clientId.equals(username + STORAGE_CLIENT_SUFFIX);
    }
}
