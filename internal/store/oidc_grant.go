package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"
)

// TokenGrant is what one authorization produced (migration 0013): every token
// issued from one authorization code, its family of access and rotated
// refresh tokens, or from one client_credentials request. Access tokens
// carry its id (the grant_id claim) and tenant sessions keep it; Principal
// refuses a revoked grant, so revoking it ends API access at once on every
// replica (D-credentials-follow).
type TokenGrant struct {
	ID        string
	UserID    string
	ClientID  string
	CreatedAt time.Time
	// ExpiresAt is when no token or session of the grant is left; the row
	// is deleted then.
	ExpiresAt time.Time
	// RevokedAt is zero while the grant holds.
	RevokedAt time.Time
}

// openGrant records the grant of an issued token, with the provider
// session it ends with, or extends it to expiresAt. A revoked grant stays
// revoked; its session stays the one it opened with.
const openGrant = `INSERT INTO token_grants (` + grantColumns + `) VALUES ($1, $2, $3, $4, $5, $6)` + extendGrant

// grantColumns are the columns of token_grants a grant opens with.
const grantColumns = `id, user_id, client_id, created_at, expires_at, session_sid`

// extendGrant ends the insert of a grant that may exist: it extends its
// expiry, never shortens it.
const extendGrant = ` ON CONFLICT (id) DO UPDATE SET expires_at = CASE WHEN EXCLUDED.expires_at > token_grants.expires_at
	THEN EXCLUDED.expires_at ELSE token_grants.expires_at END`

// TokenGrant returns a grant, revoked or not. ENOTFOUND.
func (s *OIDC) TokenGrant(ctx context.Context, id string) (*TokenGrant, error) {
	var g TokenGrant
	var revoked sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT id, user_id, client_id, created_at, expires_at, revoked_at FROM token_grants WHERE id = $1`, id).
		Scan(&g.ID, &g.UserID, &g.ClientID, &g.CreatedAt, &g.ExpiresAt, &revoked)
	if revoked.Valid {
		g.RevokedAt = revoked.Time
	}
	return &g, wrap(err, "grant")
}

// RevokeFamily revokes a token family: its grant (so no API accepts its
// access tokens any more), every access and refresh token of it, and the
// tenant sessions it created.
func (s *OIDC) RevokeFamily(ctx context.Context, familyID string) error {
	return s.InTx(ctx, func(tx *Store) error {
		return tx.endGrants(ctx, time.Now(), `id = $1`, familyID)
	})
}

// EndUserCredentials ends everything a user is signed in with: every grant
// (so no API accepts the user's access tokens any more), its access and
// refresh tokens, the identity provider's browser sessions and the tenant
// sessions; the applications that receive back-channel logouts are told. Suspension, deletion and a password change call it in their
// transaction (D-credentials-follow, D-reset).
func (s *OIDC) EndUserCredentials(ctx context.Context, userID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.QueueBackchannelLogouts(ctx, userID, "", now); err != nil { // while the grants still name the applications
			return err
		}
		if err := tx.endGrants(ctx, now, `user_id = $1`, userID); err != nil {
			return err
		}
		for _, q := range []string{ // and what names no grant
			`UPDATE refresh_tokens SET revoked = TRUE WHERE user_id = $1 AND NOT revoked`,
			`DELETE FROM idp_sessions WHERE user_id = $1`,
			`DELETE FROM tenant_sessions WHERE user_id = $1`,
		} {
			if _, err := tx.db.Exec(ctx, q, userID); err != nil {
				return err
			}
		}
		return nil
	})
}

// endGrants revokes, as of now, the grants that where selects (a condition
// on token_grants with the placeholders $1… of args) with every access and
// refresh token of theirs and the tenant sessions they created. An
// impersonation exchanged with a token of one of them ends with it, with
// its own grant (D-impersonation): a support user's sign-out ends what it
// was doing as a customer's user. Run it in a transaction: RevokeFamily,
// EndUserCredentials and EndSession do.
func (s *OIDC) endGrants(ctx context.Context, now time.Time, where string, args ...any) error {
	at := `$` + strconv.Itoa(len(args)+1)
	grants := `SELECT id FROM token_grants WHERE ` + where
	for _, q := range []string{
		`UPDATE access_tokens SET revoked = TRUE WHERE family_id IN (` + grants + `) AND NOT revoked`,
		`UPDATE refresh_tokens SET revoked = TRUE WHERE family_id IN (` + grants + `) AND NOT revoked`,
		`DELETE FROM tenant_sessions WHERE grant_id IN (` + grants + `)`,
	} {
		if _, err := s.db.Exec(ctx, q, args...); err != nil {
			return err
		}
	}
	if _, err := s.db.Exec(ctx, `UPDATE token_grants SET revoked_at = `+at+` WHERE `+where+` AND revoked_at IS NULL`,
		append(args, now.UTC())...); err != nil {
		return err
	}
	// the impersonations exchanged with a token of these grants, and then
	// their own grants (an impersonation's token is never an actor token)
	ended, err := queryAll(ctx, s.db, scanString, `UPDATE impersonations SET ended_at = `+at+`, ended_by = actor_id
		WHERE ended_at IS NULL AND expires_at > `+at+` AND actor_grant_id IN (`+grants+`) RETURNING id`, append(args, now.UTC())...)
	if err != nil || len(ended) == 0 {
		return err
	}
	var ids []any
	return s.endGrants(ctx, now, `id IN (`+placeholders(&ids, ended)+`)`, ids...)
}

// expiring names the tables whose rows end at their expires_at.
var expiring = []string{
	"auth_requests", "access_tokens", "refresh_tokens", "idp_sessions", "sso_states", "signing_keys", "token_grants",
	"device_confirmations", "device_authorizations", "pushed_requests", "client_assertions", "dpop_proofs",
}

// DeleteExpired removes transactions, tokens and sessions past their expiry.
func (s *OIDC) DeleteExpired(ctx context.Context, now time.Time) error {
	for _, table := range expiring {
		if _, err := s.db.Exec(ctx, `DELETE FROM `+table+` WHERE expires_at <= $1`, now.UTC()); err != nil {
			return err
		}
	}
	return nil
}
