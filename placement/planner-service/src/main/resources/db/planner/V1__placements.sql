-- The planner's decision log (placement/planner): every request and every decision about it, kept so a
-- restart loses none and `continuum placement explain` can show them later.
CREATE TABLE placement_requests (
    id          text PRIMARY KEY,
    run_id      text NOT NULL DEFAULT '',
    kind        text NOT NULL,
    created_at  timestamptz NOT NULL,
    request     jsonb NOT NULL
);
CREATE INDEX placement_requests_run ON placement_requests (run_id) WHERE run_id <> '';

CREATE TABLE placement_decisions (
    seq         bigserial PRIMARY KEY,
    request_id  text NOT NULL,
    at          timestamptz NOT NULL,
    cause       text NOT NULL,
    status      text NOT NULL,
    site        text,
    decision    jsonb NOT NULL
);
CREATE INDEX placement_decisions_request ON placement_decisions (request_id, seq);
CREATE INDEX placement_decisions_at ON placement_decisions (at);
