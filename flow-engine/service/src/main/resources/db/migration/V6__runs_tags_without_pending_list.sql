-- GET /runs?filter_tags=… reads runs_tags (GIN). With GIN's default fastupdate, new runs' tags wait in the index's
-- pending list (up to gin_pending_list_limit, 4 MB) until a vacuum merges them, and every tag search scans that whole
-- list: over 100,000 freshly started runs a tag search took 25–40 ms in the index alone, 0.6 ms once merged
-- (docs/benchmarks.md "Web UI"). Runs carry a few tags each, so inserting them straight into the index costs little.
ALTER INDEX runs_tags SET (fastupdate = off);
SELECT gin_clean_pending_list('runs_tags'::regclass);
