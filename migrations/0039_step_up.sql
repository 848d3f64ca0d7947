-- Step-up (D-step-up): the authentication context class an authorization
-- request demands (its acr_values: urn:platform:acr:mfa or
-- urn:platform:acr:phr), which the sign-in must reach before it completes.
ALTER TABLE auth_requests ADD COLUMN acr TEXT NOT NULL DEFAULT '';
