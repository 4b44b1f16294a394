-- Triggers (docs/triggers.md): a source bound to a flow, and every event it took in with what became of it.
CREATE TABLE triggers (
    id                   UUID        PRIMARY KEY,
    owner_id             TEXT        NOT NULL,
    spec                 JSONB       NOT NULL,   -- title, source, flow, filter, input template, run label/tags, roles
    source_type          TEXT        NOT NULL,
    paused               BOOLEAN     NOT NULL DEFAULT false,
    consecutive_failures INT         NOT NULL DEFAULT 0,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX triggers_by_source ON triggers (source_type) WHERE NOT paused;

-- One row per delivery. The partial unique index is "exactly one run per event": the first delivery of a
-- dedup key claims it ('starting'), every later one is recorded beside it as a 'duplicate'.
CREATE TABLE trigger_events (
    id            BIGSERIAL   PRIMARY KEY,
    trigger_id    UUID        NOT NULL REFERENCES triggers (id) ON DELETE CASCADE,
    dedup_key     TEXT        NOT NULL,
    outcome       TEXT        NOT NULL,           -- starting, started, filtered, rejected, duplicate
    run_id        UUID,
    reason        TEXT,
    payload       JSONB,
    received_at   TIMESTAMPTZ NOT NULL,
    claimed_until TIMESTAMPTZ
);
CREATE UNIQUE INDEX trigger_events_once ON trigger_events (trigger_id, dedup_key) WHERE outcome <> 'duplicate';
CREATE INDEX trigger_events_recent ON trigger_events (trigger_id, id DESC);

-- Webhook signing secrets, sealed with the vault key (AES-256-GCM, bound to trigger and secret id); the
-- newest two are active so a sender can rotate without a gap.
CREATE TABLE trigger_secrets (
    trigger_id UUID        NOT NULL REFERENCES triggers (id) ON DELETE CASCADE,
    secret_id  UUID        NOT NULL,
    sealed     BYTEA       NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (trigger_id, secret_id)
);
