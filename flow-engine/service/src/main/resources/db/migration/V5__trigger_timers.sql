-- Where each timer trigger stands (docs/triggers.md, "Timers"). A tick's event has the dedup key
-- 'timer:<fire time>', so this row only says what to look at next: losing an update fires nothing twice.
CREATE TABLE trigger_timers (
    trigger_id      UUID        PRIMARY KEY REFERENCES triggers (id) ON DELETE CASCADE,
    next_fire_at    TIMESTAMPTZ,            -- NULL: no tick left (once fired, end passed, max_runs reached)
    fires           INT         NOT NULL DEFAULT 0,
    pending_fire_at TIMESTAMPTZ             -- overlap buffer_one: the one tick kept until the running run ends
);
CREATE INDEX trigger_timers_due ON trigger_timers (next_fire_at);
