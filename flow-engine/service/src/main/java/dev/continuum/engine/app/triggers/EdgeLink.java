package dev.continuum.engine.app.triggers;

import dev.continuum.edge.protocol.FileWatch;
import io.smallrye.mutiny.Uni;

/** The engine's MQTT link to its edge gateways, as far as file triggers go (adapters/messaging/EdgeFileLink). */
public interface EdgeLink {

    /** Whether an edge broker is configured at all ({@code continuum.edge.broker}). */
    boolean configured();

    /** Replaces what {@code gateway} watches (retained, so a gateway that connects later gets it). */
    Uni<Void> publishWatches(String gateway, FileWatch.Watches watches);
}
