package dev.continuum.engine.app;

import dev.continuum.engine.config.SelfUrl;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The URL a provider POSTs an action's final status to, so the engine need not poll for it. */
@ApplicationScoped
public class CallbackUrls {

    private final SelfUrl self;

    public CallbackUrls(SelfUrl self) {
        this.self = self;
    }

    public String forAction(UUID runId, String token) {
        return self.base() + "/runs/" + runId + "/callbacks/" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }
}
