-- Flow versions as history (issue 32): who saved each version, and the flow's metadata as it was then, so that
-- GET /flows/{id}/versions can say what each version changed. Versions saved before this migration have no
-- author; only a flow's current version gets its metadata back (from the flows row), older ones keep NULL
-- (unknown), and a summary leaves unknown fields out rather than guess.
ALTER TABLE flow_versions
    ADD COLUMN created_by  TEXT,
    ADD COLUMN owner_id    TEXT,
    ADD COLUMN title       TEXT,
    ADD COLUMN subtitle    TEXT,
    ADD COLUMN description TEXT,
    ADD COLUMN keywords    JSONB,
    ADD COLUMN roles       JSONB;

UPDATE flow_versions v
SET owner_id = f.owner_id, title = f.title, subtitle = f.subtitle, description = f.description,
    keywords = f.keywords, roles = f.roles
FROM flows f
WHERE v.flow_id = f.id AND v.version = f.current_version;
