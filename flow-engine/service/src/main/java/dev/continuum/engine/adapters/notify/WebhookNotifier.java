package dev.continuum.engine.adapters.notify;

import dev.continuum.engine.app.Notifier;
import dev.continuum.engine.app.RunNotice;
import dev.continuum.engine.config.EngineConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/**
 * Notices as a signed JSON POST to one configured URL. The receiver checks {@code X-Continuum-Signature}:
 * {@code sha256=} and the hex HMAC-SHA256, keyed with the shared secret, of {@code <X-Continuum-Timestamp>.<body>}
 * (the timestamp lets it refuse replays); {@code X-Continuum-Delivery} stays the same across retries of one notice.
 */
@ApplicationScoped
public class WebhookNotifier implements Notifier {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Optional<URI> url;
    private final byte[] secret;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    public WebhookNotifier(EngineConfig config) {
        EngineConfig.Notifications settings = config.notifications();
        this.url = settings.webhookUrl().filter(u -> !u.isBlank()).map(URI::create);
        if (url.isPresent() && settings.webhookSecret().filter(s -> !s.isBlank()).isEmpty()) {
            throw new IllegalStateException("continuum.notifications.webhook-url is set but continuum.notifications.webhook-secret "
                    + "is not: notices are signed so the receiver can tell them from forgeries; set a shared secret.");
        }
        this.secret = settings.webhookSecret().orElse("").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String channel() {
        return "webhook";
    }

    @Override
    public boolean carries(RunNotice notice) {
        return url.isPresent();
    }

    @Override
    public Uni<Void> send(RunNotice notice) {
        String body = NoticeText.json(notice).toString();
        String delivery = UUID.nameUUIDFromBytes((notice.runId() + "/" + notice.status() + "/" + notice.at())
                .getBytes(StandardCharsets.UTF_8)).toString();
        return Uni.createFrom().deferred(() -> {
            String timestamp = String.valueOf(System.currentTimeMillis() / 1000);
            HttpRequest request = HttpRequest.newBuilder(url.orElseThrow()).timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("X-Continuum-Delivery", delivery)
                    .header("X-Continuum-Timestamp", timestamp)
                    .header("X-Continuum-Signature", "sha256=" + sign(timestamp + "." + body))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
        }).map(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("the webhook answered HTTP " + response.statusCode());
            }
            return null;
        });
    }

    /** Hex HMAC-SHA256 of {@code payload} under the shared secret. */
    String sign(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
