package store

import (
	"context"

	"time"

	"github.com/platform/platform/internal/platform"
)

// LoginPolicy returns an organization's policy, or the default policy when it
// has not set one. ENOTFOUND when the organization does not exist.
func (s *Store) LoginPolicy(ctx context.Context, orgID string) (*platform.LoginPolicy, error) {
	var p platform.LoginPolicy
	err := s.db.QueryRow(ctx, `SELECT org_id, password_allowed, sso_allowed, mfa_forced, sso_create_users,
		password_min_length, password_check_common, lockout_max_attempts, lockout_seconds, updated_at
		FROM login_policies WHERE org_id = $1`, orgID).Scan(&p.OrgID, &p.PasswordAllowed, &p.SSOAllowed, &p.MFAForced,
		&p.SSOCreateUsers, &p.PasswordMinLength, &p.PasswordCheckCommon, &p.LockoutMaxAttempts, &p.LockoutSeconds, &p.UpdatedAt)
	if err == ErrNoRows {
		if _, err := s.Organization(ctx, orgID); err != nil {
			return nil, err
		}
		return platform.DefaultLoginPolicy(orgID), nil
	}
	return &p, wrap(err, "login policy")
}

// PutLoginPolicy stores an organization's policy, replacing any earlier one.
func (s *Store) PutLoginPolicy(ctx context.Context, p *platform.LoginPolicy) error {
	_, err := s.db.Exec(ctx, `INSERT INTO login_policies (org_id, password_allowed, sso_allowed, mfa_forced,
		sso_create_users, password_min_length, password_check_common, lockout_max_attempts, lockout_seconds, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (org_id) DO UPDATE SET password_allowed = EXCLUDED.password_allowed, sso_allowed = EXCLUDED.sso_allowed,
		mfa_forced = EXCLUDED.mfa_forced, sso_create_users = EXCLUDED.sso_create_users,
		password_min_length = EXCLUDED.password_min_length, password_check_common = EXCLUDED.password_check_common,
		lockout_max_attempts = EXCLUDED.lockout_max_attempts, lockout_seconds = EXCLUDED.lockout_seconds,
		updated_at = EXCLUDED.updated_at`, p.OrgID, p.PasswordAllowed, p.SSOAllowed, p.MFAForced, p.SSOCreateUsers,
		p.PasswordMinLength, p.PasswordCheckCommon, p.LockoutMaxAttempts, p.LockoutSeconds, p.UpdatedAt.UTC())
	return wrap(err, "login policy")
}

const idpColumns = `id, org_id, name, issuer, client_id, client_secret_enc, scopes, created_at, link_trusted, mfa_enforced`

func scanIDP(r Row) (*platform.ExternalIDP, error) {
	var x platform.ExternalIDP
	var scopes string
	err := r.Scan(&x.ID, &x.OrgID, &x.Name, &x.Issuer, &x.ClientID, &x.SecretSealed, &scopes, &x.CreatedAt,
		&x.LinkTrusted, &x.MFAEnforced)
	x.Scopes = splitList(scopes)
	return &x, err
}

// CreateExternalIDP stores an external provider. EINVALID, ECONFLICT.
func (s *Store) CreateExternalIDP(ctx context.Context, x *platform.ExternalIDP) error {
	if err := x.Validate(); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO external_idps (`+idpColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		x.ID, x.OrgID, x.Name, x.Issuer, x.ClientID, x.SecretSealed, joinList(x.Scopes), x.CreatedAt.UTC(),
		x.LinkTrusted, x.MFAEnforced)
	return wrap(err, "identity provider")
}

// ExternalIDP returns one provider. ENOTFOUND when missing.
func (s *Store) ExternalIDP(ctx context.Context, id string) (*platform.ExternalIDP, error) {
	x, err := scanIDP(s.db.QueryRow(ctx, `SELECT `+idpColumns+` FROM external_idps WHERE id = $1`, id))
	return x, wrap(err, "identity provider")
}

// ExternalIDPs lists an organization's providers, or every provider for orgID "".
func (s *Store) ExternalIDPs(ctx context.Context, orgID string) ([]*platform.ExternalIDP, error) {
	return queryAll(ctx, s.db, scanIDP, `SELECT `+idpColumns+` FROM external_idps WHERE $1 = '' OR org_id = $1
		ORDER BY org_id, name, id`, orgID)
}

// DeleteExternalIDP removes a provider and its linked identities. ENOTFOUND.
func (s *Store) DeleteExternalIDP(ctx context.Context, id string) error {
	return s.execOne(ctx, "identity provider", `DELETE FROM external_idps WHERE id = $1`, id)
}

// LinkedUser returns the user linked to an external identity. ENOTFOUND.
func (s *Store) LinkedUser(ctx context.Context, idpID, subject string) (string, error) {
	var userID string
	err := s.db.QueryRow(ctx, `SELECT user_id FROM external_identities WHERE idp_id = $1 AND subject = $2`,
		idpID, subject).Scan(&userID)
	return userID, wrap(err, "external identity")
}

// LinkExternalIdentity links an external identity to a user. ECONFLICT when linked already.
func (s *Store) LinkExternalIdentity(ctx context.Context, idpID, subject, userID string, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO external_identities (idp_id, subject, user_id, created_at) VALUES ($1, $2, $3, $4)`,
		idpID, subject, userID, now.UTC())
	return wrap(err, "external identity")
}

// DeleteExternalIdentities unlinks every identity of a provider (its issuer
// changed: its subjects belong to someone else now).
func (s *Store) DeleteExternalIdentities(ctx context.Context, idpID string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM external_identities WHERE idp_id = $1`, idpID)
	return err
}

// SSOState is one login handed to an external provider.
type SSOState struct {
	StateHash     string
	AuthRequestID string
	IDPID         string
	Nonce         string
	CodeVerifier  string
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// CreateSSOState stores an external login transaction.
func (s *Store) CreateSSOState(ctx context.Context, st *SSOState) error {
	_, err := s.db.Exec(ctx, `INSERT INTO sso_states (state_hash, auth_request_id, idp_id, nonce, code_verifier, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, st.StateHash, st.AuthRequestID, st.IDPID, st.Nonce, st.CodeVerifier,
		st.CreatedAt.UTC(), st.ExpiresAt.UTC())
	return wrap(err, "sso state")
}

// TakeSSOState returns and deletes an unexpired external login transaction, so
// a state is accepted once. ENOTFOUND otherwise.
func (s *Store) TakeSSOState(ctx context.Context, stateHash string, now time.Time) (*SSOState, error) {
	var st SSOState
	err := s.db.QueryRow(ctx, `DELETE FROM sso_states WHERE state_hash = $1 AND expires_at > $2
		RETURNING state_hash, auth_request_id, idp_id, nonce, code_verifier, created_at, expires_at`, stateHash, now.UTC()).
		Scan(&st.StateHash, &st.AuthRequestID, &st.IDPID, &st.Nonce, &st.CodeVerifier, &st.CreatedAt, &st.ExpiresAt)
	return &st, wrap(err, "sso state")
}

// TOTPFactor is a user's authenticator-app factor.
type TOTPFactor struct {
	UserID       string
	SecretSealed []byte
	Confirmed    bool
	LastStep     int64
	CreatedAt    time.Time
}

// PutTOTP starts (or restarts) an unconfirmed enrolment. A confirmed factor is
// not replaced: ECONFLICT.
func (s *Store) PutTOTP(ctx context.Context, f *TOTPFactor) error {
	n, err := s.db.Exec(ctx, `INSERT INTO totp_factors (user_id, secret_enc, confirmed, last_step, created_at)
		VALUES ($1, $2, FALSE, 0, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, created_at = EXCLUDED.created_at
		WHERE NOT totp_factors.confirmed`, f.UserID, f.SecretSealed, f.CreatedAt.UTC())
	if err == nil && n == 0 {
		return platform.Errorf(platform.ECONFLICT, "two-step verification is already set up")
	}
	return wrap(err, "totp factor")
}

// TOTP returns a user's factor. ENOTFOUND when none.
func (s *Store) TOTP(ctx context.Context, userID string) (*TOTPFactor, error) {
	var f TOTPFactor
	err := s.db.QueryRow(ctx, `SELECT user_id, secret_enc, confirmed, last_step, created_at FROM totp_factors
		WHERE user_id = $1`, userID).Scan(&f.UserID, &f.SecretSealed, &f.Confirmed, &f.LastStep, &f.CreatedAt)
	return &f, wrap(err, "totp factor")
}

// UseTOTPStep records that the code of a time step was used (confirming the
// factor) and reports false when that step or a later one was used already,
// so a code works once.
func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE totp_factors SET last_step = $2, confirmed = TRUE
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	return n == 1, err
}

// ReplaceRecoveryCodes stores a new set of hashed recovery codes.
func (s *Store) ReplaceRecoveryCodes(ctx context.Context, userID string, hashes []string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := tx.db.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// UseRecoveryCode spends a recovery code; false when unknown or used.
func (s *Store) UseRecoveryCode(ctx context.Context, userID, hash string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE recovery_codes SET used = TRUE WHERE user_id = $1 AND code_hash = $2 AND NOT used`,
		userID, hash)
	return n == 1, err
}

// SetPendingUser records who passed the first factor of a login that still
// needs a second one, and how (amr).
func (s *Store) SetPendingUser(ctx context.Context, authRequestID, userID string, amr []string) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET pending_user_id = $2, pending_amr = $3 WHERE id = $1 AND NOT done`,
		authRequestID, userID, joinList(amr))
}

// SetPendingLink records an external identity that waits for the proof of
// the local account userID (D-linking). ENOTFOUND when the login is over.
func (s *Store) SetPendingLink(ctx context.Context, authRequestID, idpID, subject, userID string) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET link_idp_id = $2, link_subject = $3, link_user_id = $4
		WHERE id = $1 AND NOT done`, authRequestID, idpID, subject, userID)
}
