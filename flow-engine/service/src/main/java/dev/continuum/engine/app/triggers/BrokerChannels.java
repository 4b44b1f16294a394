package dev.continuum.engine.app.triggers;

/** Which broker-fed sources this engine takes messages from (its configured channels: adapters/messaging). */
public interface BrokerChannels {

    /** Whether messages of this source type ({@code mqtt}, {@code amqp}) reach this engine. */
    boolean receives(String sourceType);

    /** The configuration key that turns the source's channel on, for the error that says how. */
    String enabledKey(String sourceType);
}
