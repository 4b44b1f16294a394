package dev.continuum.provider.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderJson;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;

/**
 * Pushes an action's final status to the URL its /run request named in
 * {@code X-Continuum-Callback}. Best effort with exponential backoff: the engine polls anyway.
 */
final class CallbackNotifier {

    private static final System.Logger LOG = System.getLogger(CallbackNotifier.class.getName());
    private static final long TIMEOUT_MILLIS = 10_000;

    private final Vertx vertx;
    private final int attempts;
    private final Duration firstBackoff;
    private volatile WebClient web;

    CallbackNotifier(Vertx vertx, int attempts, Duration firstBackoff) {
        this.vertx = vertx;
        this.attempts = attempts;
        this.firstBackoff = firstBackoff;
    }

    void deliver(String url, ActionStatus status) {
        Buffer body;
        try {
            body = Buffer.buffer(ProviderJson.mapper().writeValueAsBytes(status));
        } catch (JsonProcessingException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot encode status of action " + status.actionId(), e);
            return;
        }
        attempt(url, status.actionId(), body, 1);
    }

    private void attempt(String url, String actionId, Buffer body, int attempt) {
        client().postAbs(url)
                .timeout(TIMEOUT_MILLIS)
                .putHeader("Content-Type", "application/json")
                .putHeader("X-Continuum-Action-Id", actionId)
                .sendBuffer(body)
                .onComplete(ar -> {
                    int code = ar.succeeded() ? ar.result().statusCode() : 0;
                    if (code >= 200 && code < 300) {
                        return;
                    }
                    // A 4xx other than timeout/throttling will not get better by asking again.
                    boolean hopeless = code >= 400 && code < 500 && code != 408 && code != 429;
                    String why = ar.succeeded() ? "HTTP " + code : String.valueOf(ar.cause().getMessage());
                    if (hopeless || attempt >= attempts) {
                        LOG.log(System.Logger.Level.WARNING, "callback for action {0} to {1} given up after {2} attempt(s): {3}",
                                actionId, url, attempt, why);
                        return;
                    }
                    long delay = Math.max(1, firstBackoff.toMillis() << Math.min(20, attempt - 1));
                    vertx.setTimer(delay, t -> attempt(url, actionId, body, attempt + 1));
                });
    }

    private WebClient client() {
        WebClient c = web;
        if (c == null) {
            synchronized (this) {
                if (web == null) {
                    web = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(5000)
                            .setFollowRedirects(false).setUserAgent("continuum-provider-callback"));
                }
                c = web;
            }
        }
        return c;
    }
}
