-- Tenant data served by the data API (docs/requirements.md 4.5): tenants of customers, their
-- projects, masters with their field definitions and master records (R2.1-fields),
-- cx schedules with their rows, and the answers kept for Idempotency-Key.

-- Kept minimal on purpose; the authorization work extends it.
CREATE TABLE tenants (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX tenants_customer ON tenants (customer_id);

CREATE TABLE projects (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX projects_tenant ON projects (tenant_id);

-- fields is a JSON array of {"key": "...", "type": "number|string|boolean|date|string_array"}.
CREATE TABLE masters (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    fields     TEXT NOT NULL DEFAULT '[]',
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (tenant_id, name)
);
CREATE INDEX masters_name ON masters (name);

-- custom_fields is a JSON object whose values follow the master's field types.
CREATE TABLE master_records (
    id            TEXT PRIMARY KEY,
    master_id     TEXT NOT NULL REFERENCES masters (id) ON DELETE CASCADE,
    tenant_id     TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    project_id    TEXT NOT NULL DEFAULT '',
    parent_id     TEXT,
    slug          TEXT NOT NULL DEFAULT '',
    ref_id        TEXT NOT NULL DEFAULT '',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    created_by    TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL,
    is_deleted    BOOLEAN NOT NULL DEFAULT FALSE
);
-- The listing walks this index in (created_at, id) order and counts on it
-- without touching the table; is_deleted comes last so that one index serves
-- includeDeleted=true and false.
CREATE INDEX master_records_page ON master_records (master_id, created_at, id, is_deleted);
CREATE INDEX master_records_project ON master_records (master_id, project_id, created_at, id);
CREATE INDEX master_records_parent ON master_records (master_id, parent_id, created_at, id);

CREATE TABLE schedules (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL DEFAULT '',
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX schedules_tenant ON schedules (tenant_id);

-- fields is the JSON object of one cx row, keyed by the upload's field names.
CREATE TABLE schedule_rows (
    schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    row_id      TEXT NOT NULL,
    fields      TEXT NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (schedule_id, row_id)
);

-- The first answer to a request that carried an Idempotency-Key, per caller.
CREATE TABLE idempotency (
    caller       TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         BYTEA NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (caller, key)
);
CREATE INDEX idempotency_created ON idempotency (created_at);
