package dev.continuum.placement.service.adapters.mqtt;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.placement.api.PlannerJson;
import dev.continuum.placement.api.Replacement;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.ReplacementPush;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Re-placements out over the link the gateway feed holds: the contract's {@link Replacement} as JSON on {@code
 * <root>/placement/<owner>/replaced}, QoS 1, not retained. The owner's persistent session keeps it while the owner
 * reconnects; one the broker never took (the planner's own link down) is logged, and the owner's slow poll finds the
 * decision in the log.
 */
@ApplicationScoped
public class MqttReplacementPush implements ReplacementPush {

    private static final Logger LOG = Logger.getLogger(MqttReplacementPush.class);

    private volatile MqttLink link;
    private volatile Topics topics;

    /** The planner's link to the broker, once {@link GatewayFeed} has one. */
    void attach(MqttLink link, Topics topics) {
        this.topics = topics;
        this.link = link;
    }

    @Override
    public void replaced(String owner, String lostSite, DecisionRecord decision) {
        MqttLink current = link;
        if (current == null) {
            return; // no broker configured: nobody holds a link to be told on
        }
        String topic;
        byte[] payload;
        try {
            topic = topics.replacements(owner);
            payload = PlannerJson.mapper().writeValueAsBytes(new Replacement(decision.requestId(), lostSite,
                    decision.site(), TraceCodec.decisionTree(decision.decision())));
        } catch (IllegalArgumentException | JsonProcessingException e) {
            LOG.warnf("cannot push the re-placement of %s to %s: %s", decision.requestId(), owner, e.getMessage());
            return;
        }
        current.publish(topic, payload, false).whenComplete((ok, e) -> {
            if (e != null) {
                LOG.infof("re-placement of %s not pushed to %s (%s): its provider will read it from the log",
                        decision.requestId(), owner, e.getMessage());
            }
        });
    }
}
