-- Branding and e-mail per customer organization (D-branding, D-org-mail):
-- the name, primary colour and logo its sign-in pages, console gateway and
-- e-mails show, and the sender display name and Reply-To of the e-mails
-- sent to its users ('' for each: the platform's default). The logo is the
-- SHA-256 (hex) of its re-encoded PNG, kept once in branding_logos and
-- served at a URL named by that hash; '' for none.
CREATE TABLE customer_branding (
    customer_id    TEXT PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
    display_name   TEXT NOT NULL DEFAULT '',
    primary_color  TEXT NOT NULL DEFAULT '',
    logo_sha256    TEXT NOT NULL DEFAULT '',
    mail_from_name TEXT NOT NULL DEFAULT '',
    mail_reply_to  TEXT NOT NULL DEFAULT '',
    updated_at     TIMESTAMPTZ NOT NULL
);

-- Logos by the SHA-256 of their PNG: the PNG the platform re-encoded
-- (never the uploaded bytes), its size in pixels.
CREATE TABLE branding_logos (
    sha256     TEXT PRIMARY KEY,
    png        BYTEA NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
