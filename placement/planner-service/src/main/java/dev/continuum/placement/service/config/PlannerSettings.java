package dev.continuum.placement.service.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** The planner service's own keys ({@code continuum.placement.*}); the database and auth keys are shared ones. */
@ConfigMapping(prefix = "continuum.placement")
public interface PlannerSettings {

    /** Training jobs' policy in the simulator's grammar, e.g. {@code las+fgd+migrate}. */
    @WithDefault("fifo")
    String policy();

    /**
     * A carbon-intensity or energy-price CSV ({@code site,time,value}) for a {@code +green} policy, e.g.
     * {@code continuum.placement.policy=fifo+green}; none = green defers nothing.
     */
    Optional<String> carbon();

    /** How inference jobs are placed. */
    Inference inference();

    interface Inference {
        /**
         * {@code continuum.placement.inference.choose-by}: what the sites are ranked by — {@code mean}, the predicted
         * mean latency, or {@code p50} … {@code p99}, that quantile as learnt from completed jobs (docs/placement.md
         * "Choosing by the tail").
         */
        @WithDefault("mean")
        String chooseBy();
    }

    /** How often, in seconds, the planner takes a policy round with nothing else happening (green windows opening, LAS demotions). */
    @WithDefault("15")
    int tickSeconds();

    /** A JSON file with the datacenter sites, links and endpoints (docs/placement.md "Running the service"). */
    Optional<String> topology();

    /** When set, every input and decision is also written to this planner trace (JSON lines) for replay. */
    Optional<String> trace();

    /**
     * The MQTT broker whose gateway heartbeats feed the inventory, {@code host:port} (plain) or {@code mqtts://host:port}
     * (TLS); none = no edge sites.
     */
    Optional<String> mqttBroker();

    /** PEM CA file an {@code mqtts://} broker's certificate must chain to; none: the JVM's trust store. */
    Optional<String> mqttCaFile();

    /** Whether an {@code mqtts://} broker's certificate must name the host the planner connects to. */
    @WithDefault("true")
    boolean mqttTlsCheckServerName();

    /** The topic root of the edge link (as the gateways and the inference provider use). */
    @WithDefault("continuum")
    String mqttTopicRoot();

    /** The broker login of the planner (the embedded broker requires one); the password is never logged. */
    Optional<String> mqttUsername();

    Optional<String> mqttPassword();

    /**
     * The fleet secret (as the inference provider's CONTINUUM_EDGE_SECRET): heartbeats count only with a credential
     * it signed, and without a login the planner logs in to the embedded broker as its operator. Never logged.
     */
    Optional<String> edgeSecret();

    /** GPU readings kept per gateway for the web UI's charts (one per heartbeat; at 5 s, 360 are half an hour). */
    @WithDefault("360")
    int gpuHistorySamples();
}
