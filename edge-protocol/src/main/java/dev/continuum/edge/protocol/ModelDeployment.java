package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Tells a gateway to make {@code name@version} the model with {@code digest}, fetching it from
 * {@code url} ({@code http(s):} or {@code file:}) unless it is cached already. Content whose digest
 * differs is refused. {@code retire}, when set, is a digest to unload once its requests finish.
 */
public record ModelDeployment(@JsonProperty("name") String name,
                              @JsonProperty("version") String version,
                              @JsonProperty("digest") String digest,
                              @JsonProperty("url") String url,
                              @JsonProperty("retire") String retire) {}
