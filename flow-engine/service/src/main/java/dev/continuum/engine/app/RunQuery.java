package dev.continuum.engine.app;

import java.util.Optional;
import java.util.UUID;

/** Filters and paging for listing runs; newest first. */
public record RunQuery(Optional<UUID> flowId, Optional<String> status, Optional<String> label, Optional<String> tag,
                       int limit, int offset) {}
