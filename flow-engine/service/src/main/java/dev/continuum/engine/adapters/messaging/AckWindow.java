package dev.continuum.engine.adapters.messaging;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The broker messages of one channel not yet acknowledged, in the order they arrived. At most {@code capacity} are
 * handled at once; the others wait their turn here, in order. Acknowledgements go out strictly in arrival order: a
 * message's ack once it and every message before it are done. MQTT requires that (a client "MUST send PUBACK packets
 * in the order in which the corresponding PUBLISH packets were received", MQTT 3.1.1 §4.6), and Mosquitto 2.0 moves
 * queued messages forward by the acknowledged message's position in its in-flight list.
 *
 * <p>How many messages wait here is the broker's in-flight window for the engine's session (Mosquitto's
 * max_inflight_messages): the broker sends no more until the engine acknowledges. The SmallRye MQTT connector has no
 * way to stop reading from the socket, and turning its overflow buffer into back-pressure would fail the channel for
 * good once full, so the waiting is done here, where it costs one small entry per message.
 *
 * <p>Every call comes from the channel's own context (one thread); the methods are synchronized only in case a
 * connector delivers off a Vert.x context.
 */
final class AckWindow {

    /** A message in the window: {@code work} handles it (and calls {@link #done} at the end), {@code ack} acknowledges it. */
    static final class Entry {
        private final Consumer<Entry> work;
        private final Runnable ack;
        private boolean done;
        private boolean acknowledge;

        private Entry(Consumer<Entry> work, Runnable ack) {
            this.work = work;
            this.ack = ack;
        }

        private Runnable start() {
            return () -> work.accept(this);
        }
    }

    private final int capacity;
    /** Every message not yet acknowledged, in arrival order. */
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    /** Those not started yet, in arrival order. */
    private final ArrayDeque<Entry> waiting = new ArrayDeque<>();
    private int handling;

    AckWindow(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** A message arrived: it takes a place at the end. Returns what to run now: its work, if a slot is free. */
    synchronized List<Runnable> open(Consumer<Entry> work, Runnable ack) {
        Entry entry = new Entry(work, ack);
        entries.addLast(entry);
        waiting.addLast(entry);
        return startable();
    }

    /**
     * The message's outcome is committed ({@code acknowledge}) or it could not be taken in (its ack is withheld, so
     * the broker sends it again after a reconnect; later messages are acknowledged past it). Returns what to run now,
     * in order: the acks that may go out, then the work of the waiting messages that get the freed slot.
     */
    synchronized List<Runnable> done(Entry entry, boolean acknowledge) {
        if (entry.done) {
            throw new IllegalStateException("a message can be done only once");
        }
        entry.done = true;
        entry.acknowledge = acknowledge;
        handling--;
        List<Runnable> next = new ArrayList<>();
        while (!entries.isEmpty() && entries.peekFirst().done) {
            Entry first = entries.removeFirst();
            if (first.acknowledge) {
                next.add(first.ack);
            }
        }
        next.addAll(startable());
        return next;
    }

    private List<Runnable> startable() {
        List<Runnable> start = new ArrayList<>();
        while (handling < capacity && !waiting.isEmpty()) {
            handling++;
            start.add(waiting.removeFirst().start());
        }
        return start;
    }

    /** Messages not yet acknowledged (being handled, waiting, or done behind an earlier one). */
    synchronized int size() {
        return entries.size();
    }

    /** Messages being handled now (at most the capacity). */
    synchronized int handling() {
        return handling;
    }
}
