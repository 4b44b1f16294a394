package dev.continuum.edge.broker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded broker as a process of its own, open to anyone (loopback only):
 * {@code java -cp … dev.continuum.edge.broker.EmbeddedBrokerMain --port 1883 [--data-dir DIR] [--until-stdin-closes]}.
 * Prints {@code broker listening on HOST:PORT} once it accepts connections. With {@code --until-stdin-closes} it stops
 * when its standard input reaches its end, so a broker started by another process never outlives it.
 */
public final class EmbeddedBrokerMain {

    private EmbeddedBrokerMain() {}

    public static void main(String[] args) throws InterruptedException {
        int port = 1883;
        Path dataDir = null;
        boolean untilStdinCloses = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--until-stdin-closes" -> untilStdinCloses = true;
                default -> {
                    System.err.println("usage: EmbeddedBrokerMain [--port N] [--data-dir DIR] [--until-stdin-closes]");
                    System.exit(2);
                }
            }
        }
        Brokers.EmbeddedBroker broker = Brokers.EmbeddedBroker.start(port, dataDir);
        Runtime.getRuntime().addShutdownHook(new Thread(broker::stop, "broker-stop"));
        System.out.println("broker listening on " + broker.host() + ":" + broker.port());
        System.out.flush();
        if (untilStdinCloses) {
            Thread watch = new Thread(() -> {
                drain(System.in);
                System.exit(0);
            }, "broker-stdin");
            watch.setDaemon(true);
            watch.start();
        }
        new CountDownLatch(1).await();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // nothing is expected on stdin; only its end matters
            }
        } catch (IOException e) {
            // a broken pipe is an end too
        }
    }
}
