package dev.continuum.engine.app;

import io.smallrye.mutiny.Uni;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Tokens a run sends to its action providers (docs/auth.md, ADR 0005). At start (and resume) the
 * starter's token is exchanged once per provider the flow calls; each call then asks for a token
 * meant for that provider alone. With authentication off every call goes without a token.
 */
public interface ProviderTokens {

    /** Whose identity an Action state's provider call carries: the flow's {@code RunAs}. */
    record Principal(String runAs) {
        public static final Principal USER = new Principal(null);
        public static final String SERVICE_ACCOUNT = "Flow";

        public static Principal of(String runAs) {
            return runAs == null || runAs.isBlank() || runAs.equals("User") ? USER : new Principal(runAs);
        }

        public boolean user() {
            return runAs == null;
        }

        public boolean serviceAccount() {
            return SERVICE_ACCOUNT.equals(runAs);
        }

        /** The key grants are stored under: "user", "flow" or "role:NAME". */
        public String key() {
            return user() ? "user" : serviceAccount() ? "flow" : "role:" + runAs;
        }
    }

    /** One Action state as delegation sees it: where it calls and as whom. */
    record Call(String stateName, String actionUrl, Principal principal) {}

    /**
     * Exchanges the person's token (and the named roles' tokens) for renewable grants covering every
     * call, and stores them sealed. Fails with {@link dev.continuum.engine.domain.EngineError} (the
     * start or resume is refused) when a grant cannot be had.
     *
     * @param roleTokens tokens supplied at run start for {@code RunAs} roles, by role name
     */
    Uni<Void> delegate(UUID runId, Optional<String> userToken, Map<String, String> roleTokens, Collection<Call> calls);

    /** The bearer token for one provider call; empty with authentication off. Fails with {@link SignInRequired}. */
    Uni<Optional<String>> bearer(UUID runId, String actionUrl, String runAs);

    /** True when no call carries a token (authentication off): {@link #bearer} would answer empty, so need not be asked. */
    default boolean tokenless() {
        return false;
    }

    /** Drops the run's grants (it finished or was released). */
    Uni<Void> forget(UUID runId);
}
