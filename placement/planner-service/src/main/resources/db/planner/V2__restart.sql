-- Restart without loss (issue 13): a finished job is marked so a restarted planner takes back only the others,
-- and what backends reported (training partitions) is kept so the inventory rebuilds without waiting for them.
ALTER TABLE placement_requests ADD COLUMN finished_at timestamptz;
CREATE INDEX placement_requests_unfinished ON placement_requests (created_at) WHERE finished_at IS NULL;

CREATE TABLE planner_reported_sites (
    site        text PRIMARY KEY,
    report      jsonb NOT NULL,
    updated_at  timestamptz NOT NULL
);
