-- Groups (D-groups): a group belongs to one organization (a customer's, or
-- the administrator organization for internal groups), binds at most one
-- role ('' binds none: a directory may create a group before it is given a
-- role), and has members and managers, users of the same organization. A
-- member holds the group's role besides its own (the most permissive union,
-- D-group-roles); a manager may add and remove the group's members and
-- nothing else, and need not be a member. external_id is the directory's
-- identifier of the group (SCIM externalId), unique in the organization
-- when set. A group's grants are customer_grants and instance_grants rows of
-- grantee_type 'group'; removing the group removes them (store.DeleteGroup).
CREATE TABLE user_groups (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL DEFAULT '',
    external_id TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (org_id, name)
);
CREATE UNIQUE INDEX user_groups_external ON user_groups (org_id, external_id) WHERE external_id <> '';

CREATE TABLE group_members (
    group_id TEXT NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_user ON group_members (user_id);

CREATE TABLE group_managers (
    group_id TEXT NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_managers_user ON group_managers (user_id);

