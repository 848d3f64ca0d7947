-- Sign-in attempts in flight (D-lockout): a check of an account's password
-- or code takes one of the attempts the account has left before it runs
-- (pending_logins, refreshed at pending_since) and gives it back when it
-- ends: a right answer counts nothing, a wrong one becomes a failure. So
-- concurrent right answers all get their turn, and concurrent wrong ones
-- still never exceed the lockout. Attempts a crashed process left behind are
-- forgotten once none was reserved for a while.
ALTER TABLE users ADD COLUMN pending_logins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN pending_since TIMESTAMPTZ;
