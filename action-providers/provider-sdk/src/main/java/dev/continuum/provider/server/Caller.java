package dev.continuum.provider.server;

import java.util.Objects;

/** Who is calling: a principal URN (or {@code local:anonymous} when no authentication is configured). */
public interface Caller {

    Caller ANONYMOUS = of("local:anonymous");

    String id();

    static Caller of(String id) {
        return new Named(id);
    }

    record Named(String id) implements Caller {
        public Named {
            Objects.requireNonNull(id, "id");
        }
    }
}
