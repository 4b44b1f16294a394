package dev.continuum.engine.adapters.web;

import io.smallrye.config.ConfigMapping;

import java.net.URI;
import java.util.Optional;

/** Operator APIs of neighbouring services that the engine relays under {@code /ops/...}, so operators need one URL. */
@ConfigMapping(prefix = "continuum.ops")
public interface OpsConfig {

    /**
     * The training provider's base (action-providers/training, e.g. http://127.0.0.1:8096/providers/training) whose
     * operator API ({@code GET jobs}, {@code POST {id}/preempt|resize|migrate}) {@code /ops/training/...} relays.
     * Unset: those calls answer 503 saying so.
     */
    Optional<URI> trainingUrl();
}
