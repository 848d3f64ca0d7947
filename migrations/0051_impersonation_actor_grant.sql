-- An impersonation ends with the support user's grant it was exchanged
-- with (D-impersonation): the grant of the console access token presented
-- as the exchange's actor_token (actor_grant_id; '' before the exchange).
-- When that grant ends (the support user signs out at the provider, revokes
-- the console's access or has its sessions ended), the impersonation ends
-- with every token of it and the tenant sessions made from them.
ALTER TABLE impersonations ADD COLUMN actor_grant_id TEXT NOT NULL DEFAULT '';
CREATE INDEX impersonations_actor_grant ON impersonations (actor_grant_id);
