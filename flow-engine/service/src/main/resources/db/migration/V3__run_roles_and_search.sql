-- Globus gives each run its own run_managers and run_monitors (besides the flow's): who may manage or watch
-- this one run. Lists of principals, like flows.roles.
ALTER TABLE runs ADD COLUMN run_managers JSONB NOT NULL DEFAULT '[]';
ALTER TABLE runs ADD COLUMN run_monitors JSONB NOT NULL DEFAULT '[]';
-- Searching runs (GET /runs filter_*): by owner and by tag, newest first, without reading every run.
CREATE INDEX runs_owner ON runs (owner_id, created_at DESC);
CREATE INDEX runs_tags ON runs USING gin (tags);
CREATE INDEX runs_created ON runs (created_at DESC, id);
CREATE INDEX flows_created ON flows (created_at DESC, id) WHERE NOT deleted;
