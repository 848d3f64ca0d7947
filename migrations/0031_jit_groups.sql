-- Just-in-time groups (D-jit-groups): a customer's SSO provider may name
-- the claim of its ID tokens that lists the user's groups (a dotted path
-- reaches into an object; '' turns it off) and map the claim's values to
-- the organization's groups (a JSON object: claim value → group id or
-- name). At each sign-in through the provider the user's memberships of the
-- mapped groups are made to match the claim; other groups stay as they are.
-- The console's record (customer_idp_configs) and the provider's
-- (external_idps) carry the same two columns.
ALTER TABLE customer_idp_configs ADD COLUMN groups_claim TEXT NOT NULL DEFAULT '';
ALTER TABLE customer_idp_configs ADD COLUMN group_mapping TEXT NOT NULL DEFAULT '{}';
ALTER TABLE external_idps ADD COLUMN groups_claim TEXT NOT NULL DEFAULT '';
ALTER TABLE external_idps ADD COLUMN group_mapping TEXT NOT NULL DEFAULT '{}';
