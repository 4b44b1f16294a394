-- Offline grants a person gave the engine (ADR 0005): the offline refresh token from the authorization-code
-- consent with scope offline_access, sealed like run_grants and bound to the grant's id and person. A revoked
-- grant keeps its row (sealed NULL, who revoked it and when) so the runs that relied on it can say why they stopped.
CREATE TABLE person_grants (
    id         UUID        PRIMARY KEY,
    person     TEXT        NOT NULL,
    sealed     BYTEA,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_by TEXT,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX person_grants_person ON person_grants (person, created_at DESC);

-- Which runs act for a person through which of their grants; rows go when the run ends or is released.
CREATE TABLE run_person_grants (
    run_id   UUID PRIMARY KEY,
    grant_id UUID NOT NULL REFERENCES person_grants (id)
);
CREATE INDEX run_person_grants_grant ON run_person_grants (grant_id);
