-- What a run needs to keep acting for a person at each provider (ADR 0005): the refresh token from the
-- token exchange, sealed with AES-256-GCM (continuum.auth.vault-key) and bound to run, principal and
-- audience. Never plaintext; access tokens are never stored. Rows go when the run finishes or is released.
CREATE TABLE run_grants (
    run_id     UUID        NOT NULL,
    principal  TEXT        NOT NULL,
    audience   TEXT        NOT NULL,
    sealed     BYTEA       NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, principal, audience)
);
