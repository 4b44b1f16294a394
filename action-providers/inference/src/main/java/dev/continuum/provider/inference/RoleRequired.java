package dev.continuum.provider.inference;

import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.CallerResolver;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * Admits only callers holding one of {@code roles} (realm roles from the token, {@link Caller#roles()}), after
 * {@code delegate} has checked who they are; others get 403. Deploying a model changes what every user of a
 * gateway gets, so it is not open to everyone who may run inference.
 */
record RoleRequired(CallerResolver delegate, Set<String> roles) implements CallerResolver {

    @Override
    public Caller resolve(RoutingContext rc) {
        return check(delegate.resolve(rc));
    }

    @Override
    public Caller resolveAuthorization(String authorization) {
        return check(delegate.resolveAuthorization(authorization));
    }

    private Caller check(Caller caller) {
        if (caller.roles().stream().noneMatch(roles::contains)) {
            throw new CallerRejectedException(403, "deploying models needs one of the realm roles " + roles);
        }
        return caller;
    }
}
