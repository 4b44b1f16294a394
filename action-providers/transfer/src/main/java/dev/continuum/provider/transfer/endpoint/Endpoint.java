package dev.continuum.provider.transfer.endpoint;

import dev.continuum.provider.server.Caller;
import java.util.Objects;
import java.util.Set;

/**
 * A registered storage root with its owner and access lists. Identities are the caller ids the
 * SDK's {@code CallerResolver} yields (Keycloak subjects once auth is plugged in);
 * {@code "public"} in a list grants everyone, including anonymous callers.
 *
 * @param id      what flows name as {@code source_endpoint_id} etc.
 * @param kind    {@code directory}, {@code s3} or {@code gateway}
 * @param owner   may read and write
 * @param readers may list and copy from
 * @param writers may copy to, mkdir and delete (writers may also read)
 */
public record Endpoint(String id, String kind, String owner, Set<String> readers, Set<String> writers, Storage storage) {

    public static final String PUBLIC = "public";

    public Endpoint {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(storage, "storage");
        readers = readers == null ? Set.of() : Set.copyOf(readers);
        writers = writers == null ? Set.of() : Set.copyOf(writers);
    }

    public boolean allows(Caller caller, Access access) {
        String who = caller.id();
        if (who.equals(owner) || writers.contains(who) || writers.contains(PUBLIC)) {
            return true;
        }
        return access == Access.READ && (readers.contains(who) || readers.contains(PUBLIC));
    }
}
