-- Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document;
-- D-client-metadata-documents). A customer turns them on; a client whose
-- client_id is an https URL on one of that customer's verified domains is
-- then described by the JSON document at that URL.
ALTER TABLE customers ADD COLUMN client_metadata_documents BOOLEAN NOT NULL DEFAULT FALSE;

-- The first use of a document records its client as an application of the
-- customer (metadata_customer_id); the row is also the cache of the
-- document: what it said when last fetched (metadata_fetched_at) and until
-- when that holds (metadata_expires_at, from its Cache-Control within
-- bounds). blocked_at: the customer blocked the client.
ALTER TABLE applications ADD COLUMN metadata_customer_id TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN metadata_fetched_at TIMESTAMPTZ;
ALTER TABLE applications ADD COLUMN metadata_expires_at TIMESTAMPTZ;
ALTER TABLE applications ADD COLUMN client_uri TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN logo_uri TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN blocked_at TIMESTAMPTZ;
CREATE INDEX applications_metadata_customer ON applications (metadata_customer_id);
