package store

import (
	"context"
	"time"
)

// TenantSession is a signed-in browser of the tenant web app.
type TenantSession struct {
	IDHash   string
	UserID   string
	ClientID string
	Email    string
	Name     string
	OrgID    string
	IDToken  string
	// GrantID is the grant whose tokens made the session; the session
	// ends with it (D-credentials-follow).
	GrantID string
	// IDPSID is the identity provider's session (the id_token's sid): a
	// back-channel logout for it ends this session.
	IDPSID        string
	RefreshSealed []byte
	// ActorID and ActorEmail name the support user acting as UserID when
	// the session was made from an impersonation's tokens (D-impersonation),
	// "" otherwise; AccessSealed is then its access token, sealed, which
	// ending the impersonation revokes.
	ActorID, ActorEmail string
	AccessSealed        []byte
	TokenExpiresAt      time.Time
	CreatedAt           time.Time
	ExpiresAt           time.Time
}

const tenantSessionColumns = `id_hash, user_id, client_id, email, name, org_id, id_token, grant_id, refresh_sealed,
	token_expires_at, created_at, expires_at, idp_sid, actor_id, actor_email, access_sealed`

// CreateTenantSession stores a session.
func (s *Identity) CreateTenantSession(ctx context.Context, ts *TenantSession) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenant_sessions (`+tenantSessionColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`, ts.IDHash, ts.UserID, ts.ClientID, ts.Email, ts.Name,
		ts.OrgID, ts.IDToken, ts.GrantID, ts.RefreshSealed, ts.TokenExpiresAt.UTC(), ts.CreatedAt.UTC(), ts.ExpiresAt.UTC(), ts.IDPSID,
		ts.ActorID, ts.ActorEmail, ts.AccessSealed)
	return wrap(err, "session")
}

// TenantSession returns a live session by the hash of its cookie: unexpired,
// and of a grant that was not revoked. ENOTFOUND otherwise.
func (s *Identity) TenantSession(ctx context.Context, idHash string, now time.Time) (*TenantSession, error) {
	var ts TenantSession
	err := s.db.QueryRow(ctx, `SELECT `+tenantSessionColumns+` FROM tenant_sessions WHERE id_hash = $1 AND expires_at > $2
		AND EXISTS (SELECT 1 FROM token_grants g WHERE g.id = tenant_sessions.grant_id AND g.revoked_at IS NULL)`,
		idHash, now.UTC()).Scan(&ts.IDHash, &ts.UserID, &ts.ClientID, &ts.Email, &ts.Name, &ts.OrgID, &ts.IDToken,
		&ts.GrantID, &ts.RefreshSealed, &ts.TokenExpiresAt, &ts.CreatedAt, &ts.ExpiresAt, &ts.IDPSID,
		&ts.ActorID, &ts.ActorEmail, &ts.AccessSealed)
	return &ts, wrap(err, "session")
}

// RenewTenantSession records refreshed tokens and extends the session.
func (s *Identity) RenewTenantSession(ctx context.Context, idHash, idToken string, refreshSealed []byte, tokenExpiresAt, expiresAt time.Time) error {
	return s.execOne(ctx, "session", `UPDATE tenant_sessions SET id_token = $2, refresh_sealed = $3, token_expires_at = $4, expires_at = $5
		WHERE id_hash = $1`, idHash, idToken, refreshSealed, tokenExpiresAt.UTC(), expiresAt.UTC())
}

// DeleteTenantSession ends a session.
func (s *Identity) DeleteTenantSession(ctx context.Context, idHash string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM tenant_sessions WHERE id_hash = $1`, idHash)
	return err
}

// DeleteExpiredTenantSessions removes sessions past their expiry.
func (s *Identity) DeleteExpiredTenantSessions(ctx context.Context, now time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM tenant_sessions WHERE expires_at <= $1`, now.UTC())
	return err
}

// EndTenantSessionsForLogout ends a client's sessions named by a
// back-channel logout: those of the provider session sid when it is set,
// else every session of userID (an empty userID matches any user of that
// sid), and only sessions that began before the logout was issued, so a
// replayed logout token never ends a later sign-in. It answers how many
// ended.
func (s *Identity) EndTenantSessionsForLogout(ctx context.Context, clientID, userID, sid string, issuedAt time.Time) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM tenant_sessions WHERE client_id = $1 AND created_at <= $4
		AND ($3 = '' OR idp_sid = $3) AND ($2 = '' OR user_id = $2) AND ($2 <> '' OR $3 <> '')`,
		clientID, userID, sid, issuedAt.UTC())
}
