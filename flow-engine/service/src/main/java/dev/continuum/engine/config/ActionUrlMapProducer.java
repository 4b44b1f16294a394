package dev.continuum.engine.config;

import dev.continuum.engine.domain.ActionUrlMap;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * continuum.providers.url-map, parsed once: the gateway that calls a provider and the tokens that
 * choose its audience must resolve an ActionUrl to the same place.
 */
public class ActionUrlMapProducer {

    @Produces
    @Singleton
    ActionUrlMap actionUrlMap(EngineConfig config, SelfUrl selfUrl) {
        return ActionUrlMap.parse(config.providers().urlMap().orElse(List.of()), selfUrl::providersBase);
    }
}
