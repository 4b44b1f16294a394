package dev.continuum.edge.gateway.testing;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay between a client and the broker, to break the link the way networks do:
 * {@link #cut()} drops every connection (the broker sees a vanished client and publishes its will),
 * {@link #blackhole()} silently stops forwarding (the broker notices only by keep-alive expiry),
 * {@link #muteClient()} drops only what the client sends (its publishes and acknowledgements go nowhere),
 * {@link #heal()} lets new connections through again.
 */
public final class TcpProxy implements AutoCloseable {

    private final NetServer server;
    private final NetClient client;
    private final List<NetSocket> open = new CopyOnWriteArrayList<>();
    private volatile boolean blackholed;
    private volatile boolean muted;
    private volatile boolean refusing;

    public TcpProxy(Vertx vertx, String targetHost, int targetPort) throws Exception {
        client = vertx.createNetClient();
        server = vertx.createNetServer().connectHandler(downstream -> {
            if (refusing) {
                downstream.close();
                return;
            }
            downstream.pause();
            client.connect(targetPort, targetHost).onComplete(ar -> {
                if (ar.failed()) {
                    downstream.close();
                    return;
                }
                NetSocket upstream = ar.result();
                open.add(downstream);
                open.add(upstream);
                downstream.handler(b -> { if (!blackholed && !muted) upstream.write(b); });
                upstream.handler(b -> { if (!blackholed) downstream.write(b); });
                downstream.closeHandler(v -> { upstream.close(); open.remove(downstream); });
                upstream.closeHandler(v -> { downstream.close(); open.remove(upstream); });
                downstream.resume();
            });
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    public int port() {
        return server.actualPort();
    }

    /** Drops all connections and refuses new ones until {@link #heal()}. */
    public void cut() {
        refusing = true;
        open.forEach(NetSocket::close);
    }

    /** Keeps connections open but forwards nothing, like a dead radio link. */
    public void blackhole() {
        blackholed = true;
    }

    /** Forwards what the broker sends and drops what the client sends, like a link whose uplink died. */
    public void muteClient() {
        muted = true;
    }

    public void heal() {
        blackholed = false;
        muted = false;
        refusing = false;
    }

    @Override
    public void close() {
        cut();
        server.close();
        client.close();
    }
}
