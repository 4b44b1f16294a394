-- Finish listeners (issue 18): an engine process that started a built-in action in process holds the action's finish
-- in memory, so the run needs no status polls while that process lives. runs.listener names that process (an engine
-- incarnation: one per process start) in the same commit as the run's state and next wake-up; engine_incarnations holds
-- each live process's heartbeat. When a heartbeat lapses (the process died or restarted), a sweep by any instance clears
-- the listener and makes its runs due at once, so their actions are polled as before.
ALTER TABLE runs ADD COLUMN listener TEXT;
CREATE INDEX runs_listener ON runs (listener) WHERE listener IS NOT NULL;
CREATE TABLE engine_incarnations (
    id          TEXT        PRIMARY KEY,
    alive_until TIMESTAMPTZ NOT NULL
);
