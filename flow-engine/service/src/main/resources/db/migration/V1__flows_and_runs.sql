-- Flows are versioned: a run points at the exact version it started with.
CREATE TABLE flows (
    id              UUID PRIMARY KEY,
    owner_id        TEXT        NOT NULL,
    current_version INTEGER     NOT NULL,
    title           TEXT        NOT NULL,
    subtitle        TEXT,
    description     TEXT,
    keywords        JSONB       NOT NULL DEFAULT '[]',
    roles           JSONB       NOT NULL DEFAULT '{}',
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    deleted         BOOLEAN     NOT NULL DEFAULT FALSE
);

CREATE TABLE flow_versions (
    flow_id      UUID        NOT NULL REFERENCES flows (id),
    version      INTEGER     NOT NULL,
    definition   JSONB       NOT NULL,
    input_schema JSONB,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (flow_id, version)
);

CREATE TABLE runs (
    id             UUID PRIMARY KEY,
    flow_id        UUID        NOT NULL,
    flow_version   INTEGER     NOT NULL,
    owner_id       TEXT        NOT NULL,
    status         TEXT        NOT NULL,
    label          TEXT,
    tags           JSONB       NOT NULL DEFAULT '[]',
    state          JSONB       NOT NULL,
    next_wake_at   TIMESTAMPTZ,
    lease_owner    TEXT,
    lease_until    TIMESTAMPTZ,
    event_seq      INTEGER     NOT NULL DEFAULT 0,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL,
    completed_at   TIMESTAMPTZ,
    FOREIGN KEY (flow_id, flow_version) REFERENCES flow_versions (flow_id, version)
);
CREATE INDEX runs_due ON runs (next_wake_at) WHERE next_wake_at IS NOT NULL;
CREATE INDEX runs_flow ON runs (flow_id, created_at DESC);
CREATE INDEX runs_status ON runs (status, created_at DESC);

-- Append-only: rows are inserted, never updated; a released run removes its own rows.
CREATE TABLE run_events (
    run_id     UUID        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq        INTEGER     NOT NULL,
    code       TEXT        NOT NULL,
    state_name TEXT,
    description TEXT,
    details    JSONB,
    at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Completions pushed by providers, consumed by whichever instance drives the run next.
CREATE TABLE run_inbox (
    id          BIGSERIAL PRIMARY KEY,
    run_id      UUID        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    token       TEXT        NOT NULL,
    status      JSONB       NOT NULL,
    received_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX run_inbox_run ON run_inbox (run_id);
