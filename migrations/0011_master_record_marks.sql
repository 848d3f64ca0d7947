-- Counters and page marks of master records, so that listing one large master
-- answers its exact total and any page without walking the records before it
-- (docs/benchmarks-data.md). The store keeps them: every write of
-- master_records updates the counters and bumps records_version in the same
-- transaction; the marks are rebuilt when a listing finds marks_version behind.

ALTER TABLE masters ADD COLUMN live_records BIGINT NOT NULL DEFAULT 0;
ALTER TABLE masters ADD COLUMN all_records BIGINT NOT NULL DEFAULT 0;
ALTER TABLE masters ADD COLUMN records_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE masters ADD COLUMN marks_version BIGINT NOT NULL DEFAULT -1;
UPDATE masters SET all_records = (SELECT COUNT(*) FROM master_records r WHERE r.master_id = masters.id), live_records = (SELECT COUNT(*) FROM master_records r WHERE r.master_id = masters.id AND r.is_deleted = FALSE);

-- Mark n of a master is the record at position n * spacing of its listing in
-- (created_at, id) order, without deleted records (deleted = FALSE) or with
-- them (deleted = TRUE).
CREATE TABLE master_record_marks (
    master_id  TEXT NOT NULL REFERENCES masters (id) ON DELETE CASCADE,
    deleted    BOOLEAN NOT NULL,
    n          BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    record_id  TEXT NOT NULL,
    PRIMARY KEY (master_id, deleted, n)
);

-- The project and parent listings count and skip on their indexes without
-- visiting the table: is_deleted joins them, last, as in master_records_page.
DROP INDEX master_records_project;
CREATE INDEX master_records_project ON master_records (master_id, project_id, created_at, id, is_deleted);
DROP INDEX master_records_parent;
CREATE INDEX master_records_parent ON master_records (master_id, parent_id, created_at, id, is_deleted);
