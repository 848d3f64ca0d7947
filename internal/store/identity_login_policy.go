package store

import (
	"context"

	"github.com/platform/platform/internal/platform"
)

const loginPolicyColumns = `org_id, password_allowed, sso_allowed, mfa_forced, sso_create_users, password_min_length,
	password_check_common, lockout_max_attempts, lockout_seconds, updated_at, passkey_allowed, passkey_required,
	session_idle_seconds, session_max_seconds, mfa_by_totp, mfa_by_passkey, mfa_by_sso`

// LoginPolicy returns an organization's policy, or the default policy when it
// has not set one. ENOTFOUND when the organization does not exist.
func (s *Identity) LoginPolicy(ctx context.Context, orgID string) (*platform.LoginPolicy, error) {
	var p platform.LoginPolicy
	err := s.db.QueryRow(ctx, `SELECT `+loginPolicyColumns+` FROM login_policies WHERE org_id = $1`, orgID).Scan(&p.OrgID, &p.PasswordAllowed, &p.SSOAllowed, &p.MFAForced,
		&p.SSOCreateUsers, &p.PasswordMinLength, &p.PasswordCheckCommon, &p.LockoutMaxAttempts, &p.LockoutSeconds, &p.UpdatedAt,
		&p.PasskeyAllowed, &p.PasskeyRequired, &p.SessionIdleSeconds, &p.SessionMaxSeconds, &p.MFAByTOTP, &p.MFAByPasskey, &p.MFABySSO)
	if err == ErrNoRows {
		if _, err := s.Organization(ctx, orgID); err != nil {
			return nil, err
		}
		return platform.DefaultLoginPolicy(orgID), nil
	}
	return &p, wrap(err, "login policy")
}

// PutLoginPolicy stores an organization's policy, replacing any earlier one.
func (s *Identity) PutLoginPolicy(ctx context.Context, p *platform.LoginPolicy) error {
	_, err := s.db.Exec(ctx, `INSERT INTO login_policies (`+loginPolicyColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
		ON CONFLICT (org_id) DO UPDATE SET password_allowed = EXCLUDED.password_allowed, sso_allowed = EXCLUDED.sso_allowed,
		mfa_forced = EXCLUDED.mfa_forced, sso_create_users = EXCLUDED.sso_create_users,
		password_min_length = EXCLUDED.password_min_length, password_check_common = EXCLUDED.password_check_common,
		lockout_max_attempts = EXCLUDED.lockout_max_attempts, lockout_seconds = EXCLUDED.lockout_seconds,
		updated_at = EXCLUDED.updated_at, passkey_allowed = EXCLUDED.passkey_allowed,
		passkey_required = EXCLUDED.passkey_required, session_idle_seconds = EXCLUDED.session_idle_seconds,
		session_max_seconds = EXCLUDED.session_max_seconds, mfa_by_totp = EXCLUDED.mfa_by_totp,
		mfa_by_passkey = EXCLUDED.mfa_by_passkey, mfa_by_sso = EXCLUDED.mfa_by_sso`, p.OrgID, p.PasswordAllowed, p.SSOAllowed, p.MFAForced, p.SSOCreateUsers,
		p.PasswordMinLength, p.PasswordCheckCommon, p.LockoutMaxAttempts, p.LockoutSeconds, p.UpdatedAt.UTC(),
		p.PasskeyAllowed, p.PasskeyAllowed && p.PasskeyRequired, p.SessionIdleSeconds, p.SessionMaxSeconds,
		p.MFAByTOTP, p.MFAByPasskey, p.MFABySSO)
	return wrap(err, "login policy")
}
