package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.config.StrictJson;
import dev.continuum.engine.domain.EngineError;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.List;
import java.util.Map;

/**
 * Path and query parameters are held to what StrictJson holds body text to: one carrying U+0000 (which PostgreSQL
 * cannot compare or store; such a filter failed with a 500) or a lone surrogate half is refused with a 400 naming it.
 */
public class StorableParameters {

    @ServerRequestFilter
    public void refuseUnstorable(ContainerRequestContext request) {
        check(request.getUriInfo().getPathParameters(true));
        check(request.getUriInfo().getQueryParameters(true));
    }

    private static void check(MultivaluedMap<String, String> parameters) {
        for (Map.Entry<String, List<String>> parameter : parameters.entrySet()) {
            for (String value : parameter.getValue()) {
                StrictJson.unstorable(value).ifPresent(reason -> {
                    throw EngineError.invalidField("/" + parameter.getKey(), parameter.getKey() + " " + reason + ".");
                });
            }
        }
    }
}
