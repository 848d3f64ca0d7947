-- An organization's security policy (D-org-policy) extends its login
-- policy: how long its users' sessions at the identity provider last (idle:
-- since their last use; absolute: since the sign-in; 0 is the platform's
-- default), and which second factors satisfy its MFA requirement (an
-- authenticator app, a passkey, an external provider that enforces MFA).
ALTER TABLE login_policies ADD COLUMN session_idle_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE login_policies ADD COLUMN session_max_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE login_policies ADD COLUMN mfa_by_totp BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE login_policies ADD COLUMN mfa_by_passkey BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE login_policies ADD COLUMN mfa_by_sso BOOLEAN NOT NULL DEFAULT TRUE;
