package dev.continuum.engine.app;

import dev.continuum.engine.config.SelfUrl;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/** The URL a provider POSTs an action's final status to, so the engine need not poll for it. */
@ApplicationScoped
public class CallbackUrls {

    private final SelfUrl self;

    public CallbackUrls(SelfUrl self) {
        this.self = self;
    }

    public String forAction(UUID runId, String token) {
        return self.base() + "/runs/" + runId + "/callbacks/" + encode(token);
    }

    /** Tokens contain slashes; base64url keeps them one path segment. */
    public static String encode(String token) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token.getBytes(StandardCharsets.UTF_8));
    }

    public static String decode(String segment) {
        try {
            return new String(Base64.getUrlDecoder().decode(segment), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw dev.continuum.engine.domain.EngineError.invalidField("/token", "not a callback token issued by this engine");
        }
    }
}
