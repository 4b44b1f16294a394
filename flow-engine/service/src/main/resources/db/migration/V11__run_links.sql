-- Flows run flows (issue 32): a child run started by a parent run's Action state. The link is written before the child
-- run, under the child's id, which is derived from (flow, caller, request_id): a repeated request_id — a retry, or a
-- takeover after an engine was killed between starting the child and committing the parent's turn — finds the child
-- already there instead of starting a second one. depth counts the parent links above the child (a top-level run's
-- child has depth 1). parent_token is the parent's waiting Action: a finished child queues its status there (run_inbox),
-- so the parent goes on at once rather than at its next status poll.
CREATE TABLE run_links (
    child_run_id  UUID    PRIMARY KEY,
    parent_run_id UUID    NOT NULL,
    parent_state  TEXT,
    parent_token  TEXT,
    request_id    TEXT    NOT NULL,
    depth         INTEGER NOT NULL
);
CREATE INDEX run_links_parent ON run_links (parent_run_id);
