package dev.continuum.provider.transfer.endpoint;

import dev.continuum.provider.server.Caller;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The endpoints a transfer provider serves, by id. Thread-safe after construction. */
public final class EndpointRegistry {

    private final Map<String, Endpoint> byId = new LinkedHashMap<>();

    public EndpointRegistry register(Endpoint endpoint) {
        if (byId.putIfAbsent(endpoint.id(), endpoint) != null) {
            throw new IllegalArgumentException("endpoint " + endpoint.id() + " is registered twice");
        }
        return this;
    }

    public Optional<Endpoint> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Collection<Endpoint> all() {
        return byId.values();
    }

    /** The endpoint, if it exists and the caller may use it as asked; otherwise why not. */
    public Endpoint require(String id, Caller caller, Access access) {
        Endpoint e = byId.get(id);
        if (e == null) {
            throw new EndpointAccessException("EndpointNotFound", "no endpoint with id '" + id + "'");
        }
        if (!e.allows(caller, access)) {
            // the same words whether or not the caller may know the endpoint exists beyond its id
            throw new EndpointAccessException("PermissionDenied", caller.id() + " may not "
                    + (access == Access.READ ? "read" : "write") + " endpoint '" + id + "'");
        }
        return e;
    }

    /** Refusal to use an endpoint: unknown id, or no ACL entry for the caller. */
    public static final class EndpointAccessException extends RuntimeException {
        private final String code;

        public EndpointAccessException(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }
}
