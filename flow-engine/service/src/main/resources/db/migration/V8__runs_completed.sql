-- Run triggers (chaining, docs/triggers.md#chaining) look for finished runs they have no event for, by completion time:
-- the changes the run-event stream lost in a crash.
CREATE INDEX runs_completed ON runs (completed_at) WHERE completed_at IS NOT NULL;
