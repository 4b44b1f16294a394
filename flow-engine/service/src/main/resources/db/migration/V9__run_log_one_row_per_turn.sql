-- The run log as one row per committed turn instead of one row per entry (issue 17): a turn's entries (the states it
-- passed through, FlowStarted … FlowSucceeded) are written as one JSON array, so a five-step run writes about 4 log
-- rows instead of 10. seq is the turn's first entry's number; entry i of the array (from 1) is number seq + i - 1.
-- Reads expand the array, so the API's log (entries, seq, paging) is unchanged. Append-only, as run_events was.
CREATE TABLE run_log (
    run_id  UUID    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    entries JSONB   NOT NULL,
    PRIMARY KEY (run_id, seq)
);
INSERT INTO run_log (run_id, seq, entries)
SELECT run_id, seq, jsonb_build_array(jsonb_build_object('code', code, 'state_name', state_name,
                                                         'description', description, 'details', details, 'at', at))
FROM run_events;
DROP TABLE run_events;
