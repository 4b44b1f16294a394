package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Sent once by a gateway without a device credential: proves itself with its bootstrap credential. */
public record Registration(@JsonProperty("device_id") String deviceId,
                           @JsonProperty("bootstrap_token") String bootstrapToken,
                           @JsonProperty("nonce") String nonce) {}
