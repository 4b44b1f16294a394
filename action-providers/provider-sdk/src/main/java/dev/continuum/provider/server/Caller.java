package dev.continuum.provider.server;

import java.util.Objects;
import java.util.Set;

/** Who is calling: a principal URN (or {@code local:anonymous} when no authentication is configured). */
public interface Caller {

    Caller ANONYMOUS = of("local:anonymous");

    String id();

    /** The caller's realm roles (e.g. {@code continuum-admin}), for operations only operators may do; none by default. */
    default Set<String> roles() {
        return Set.of();
    }

    static Caller of(String id) {
        return new Named(id);
    }

    static Caller of(String id, Set<String> roles) {
        return new WithRoles(id, roles);
    }

    record Named(String id) implements Caller {
        public Named {
            Objects.requireNonNull(id, "id");
        }
    }

    record WithRoles(String id, Set<String> roles) implements Caller {
        public WithRoles {
            Objects.requireNonNull(id, "id");
            roles = Set.copyOf(roles);
        }
    }
}
