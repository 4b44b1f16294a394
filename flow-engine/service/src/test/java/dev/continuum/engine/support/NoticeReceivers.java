package dev.continuum.engine.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.junit.QuarkusTestProfile;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Test profile: run notices on, going to a real SMTP server (GreenMail) and a webhook receiver in this JVM. The
 * engine acts as a local user whose name is an e-mail address, so e-mail notices have somewhere to go. The
 * receiver answers 503 to the first {@link #FLAKY_FAILURES} posts whose body mentions "flaky", to show retries.
 * Quarkus loads this profile and the test class in different class loaders, so statics are not shared: the
 * receiver also answers {@code GET /received/posts|mails|refused} with what it got, and tests ask it over HTTP
 * at the address the engine's configuration names.
 */
public class NoticeReceivers implements QuarkusTestProfile {

    public static final String OWNER = "ada@example.org";
    public static final String SECRET = "test-only-webhook-secret";
    public static final int FLAKY_FAILURES = 2;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static Map<String, Object> receivers;

    /** One webhook post (its headers, lower-cased, and "body") or one e-mail ("to", "subject", "text"). */
    public record Received(Map<String, String> fields) {
        public String get(String name) {
            return fields.get(name.toLowerCase());
        }
    }

    public static List<Received> posts() {
        return received("posts");
    }

    public static List<Received> mails() {
        return received("mails");
    }

    public static int refused() {
        return Integer.parseInt(ask("refused"));
    }

    private static List<Received> received(String what) {
        try {
            List<Map<String, String>> list = JSON.readValue(ask(what),
                    new com.fasterxml.jackson.core.type.TypeReference<List<Map<String, String>>>() {});
            return list.stream().map(Received::new).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the receiver in the engine's class loader got, over HTTP. */
    private static String ask(String what) {
        String hook = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("continuum.notifications.webhook-url", String.class);
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
            return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(hook.replace("/hook", "/received/" + what)))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static synchronized Map<String, Object> shared() {
        if (receivers == null) {
            receivers = start();
        }
        return receivers;
    }

    private static Map<String, Object> start() {
        GreenMail smtp = new GreenMail(new ServerSetup(freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        List<Map<String, String>> posts = new CopyOnWriteArrayList<>();
        AtomicInteger refused = new AtomicInteger();
        HttpServer webhook;
        try {
            webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        webhook.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean refuse = body.contains("flaky") && refused.getAndIncrement() < FLAKY_FAILURES;
            if (!refuse) {
                Map<String, String> post = new java.util.HashMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> post.put(name.toLowerCase(), values.get(0)));
                post.put("body", body);
                posts.add(post);
            }
            exchange.sendResponseHeaders(refuse ? 503 : 204, -1);
            exchange.close();
        });
        Supplier<List<Map<String, String>>> mails = () -> {
            List<Map<String, String>> all = new ArrayList<>();
            for (MimeMessage message : smtp.getReceivedMessages()) {
                all.add(mail(message));
            }
            return all;
        };
        Map<String, Supplier<Object>> answers = Map.of("posts", () -> posts, "mails", mails::get, "refused", refused::get);
        webhook.createContext("/received/", exchange -> {
            String what = exchange.getRequestURI().getPath().substring("/received/".length());
            byte[] body;
            try {
                body = JSON.writeValueAsBytes(answers.get(what).get());
            } catch (RuntimeException e) {
                body = JSON.writeValueAsBytes(List.of(Map.of("text", "receiver failed: " + e, "body", "", "to", "")));
            }
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        webhook.start();
        return Map.of("smtp-port", smtp.getSmtp().getPort(), "webhook-port", webhook.getAddress().getPort());
    }

    private static Map<String, String> mail(MimeMessage message) {
        // jakarta.mail finds its content handlers through the context class loader; Quarkus' differs from this class's
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(NoticeReceivers.class.getClassLoader());
        try {
            Object content = message.getContent();
            StringBuilder text = new StringBuilder();
            if (content instanceof Multipart multipart) {
                for (int i = 0; i < multipart.getCount(); i++) {
                    text.append(multipart.getBodyPart(i).getContent());
                }
            } else {
                text.append(content);
            }
            return Map.of("to", message.getAllRecipients()[0].toString(), "subject", message.getSubject(), "text", text.toString());
        } catch (Exception e) {
            return Map.of("to", "?", "subject", "?", "text", "unreadable test e-mail: " + e);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, Object> receivers = shared();
        return Map.of(
                "continuum.local-user", OWNER,
                "continuum.notifications.email", "true",
                "continuum.notifications.webhook-url", "http://127.0.0.1:" + receivers.get("webhook-port") + "/hook",
                "continuum.notifications.webhook-secret", SECRET,
                "continuum.notifications.backoff", "50ms",
                "quarkus.mailer.mock", "false",
                "quarkus.mailer.host", "127.0.0.1",
                "quarkus.mailer.port", String.valueOf(receivers.get("smtp-port")));
    }
}
