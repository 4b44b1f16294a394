package dev.continuum.engine.app;

import io.smallrye.mutiny.Uni;

/** A channel run notices go out on (e-mail, webhook); adapters/notify implements them. */
public interface Notifier {

    /** Short name for logs ("email", "webhook"). */
    String channel();

    /** False when this channel cannot carry the notice (e.g. e-mail without an address) or is not configured. */
    boolean carries(RunNotice notice);

    /** Delivers one notice; a failed Uni means "try again later". */
    Uni<Void> send(RunNotice notice);
}
