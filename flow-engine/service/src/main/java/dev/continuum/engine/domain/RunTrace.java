package dev.continuum.engine.domain;

import java.util.HexFormat;
import java.util.UUID;

/**
 * A run's place in distributed tracing: its trace id is its own id (128 bits, the dashes dropped), so every span
 * of a run — each provider call, on any engine instance, across restarts, and the providers' and gateways' spans
 * below them — lands in one trace that an operator finds by the run id. The engine's spans hang under a root
 * span id derived from the run id too; no span of that id is ever exported (a run may last weeks), so tracing
 * backends show the run's spans under a missing root.
 */
public record RunTrace(String traceId, String rootSpanId) {

    public static RunTrace of(UUID runId) {
        HexFormat hex = HexFormat.of(); // as %016x, without a Formatter per provider call
        String trace = hex.toHexDigits(runId.getMostSignificantBits()) + hex.toHexDigits(runId.getLeastSignificantBits());
        long span = runId.getLeastSignificantBits() == 0 ? 1 : runId.getLeastSignificantBits();
        return new RunTrace(trace, hex.toHexDigits(span));
    }
}
