-- Decisions a provider made itself and reported (issue 37: the training provider's in-process planner): kept in the
-- log beside the planner's own, but a restarted planner never takes these jobs back (they are the provider's).
ALTER TABLE placement_requests ADD COLUMN reported boolean NOT NULL DEFAULT false;
