-- The account page's changes to how one signs in (password, e-mail,
-- second factor, recovery codes, passkeys) need a recent proof in the
-- browser session (D-reauth): its sign-in, or a password, one-time code or
-- passkey given again on the account page, whose time is kept here. NULL:
-- no proof since the sign-in.
ALTER TABLE idp_sessions ADD COLUMN proved_at TIMESTAMPTZ;
