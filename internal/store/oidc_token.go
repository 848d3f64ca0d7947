package store

import (
	"context"
	"errors"
	"time"
)

// AccessToken is the record of an issued access token (its JWT id). Its
// family is its grant (TokenGrant).
type AccessToken struct {
	ID        string
	FamilyID  string
	ClientID  string
	UserID    string
	Scopes    []string
	Audience  []string
	CreatedAt time.Time
	ExpiresAt time.Time
	Revoked   bool
	// GrantExpiresAt is how long the grant must live at least for this
	// token (a session made from its id_token may outlive the access token);
	// zero means ExpiresAt.
	GrantExpiresAt time.Time
	// SessionSID is the provider session the grant ends with (EndSession),
	// recorded when the grant opens; "" for a grant that outlives it.
	SessionSID string
	// DPoPJKT is the thumbprint (RFC 7638) of the DPoP key the token is
	// bound to (its cnf.jkt), "" when unbound.
	DPoPJKT string
}

// grantExpiry is when t's grant may end at the earliest.
func (t *AccessToken) grantExpiry() time.Time {
	if t.GrantExpiresAt.After(t.ExpiresAt) {
		return t.GrantExpiresAt.UTC()
	}
	return t.ExpiresAt.UTC()
}

// accessTokenColumns are the columns of access_tokens a row is written and
// read with, in the order of accessTokenRow.
const accessTokenColumns = `id, family_id, client_id, user_id, scopes, audience, created_at, expires_at, revoked, dpop_jkt`

// accessTokenRow is t's values of accessTokenColumns.
func accessTokenRow(t *AccessToken) []any {
	return []any{t.ID, t.FamilyID, t.ClientID, t.UserID, joinList(t.Scopes), joinList(t.Audience), t.CreatedAt.UTC(),
		t.ExpiresAt.UTC(), t.Revoked, t.DPoPJKT}
}

// CreateAccessToken stores an issued access token and records (or extends)
// its grant, in one transaction.
func (s *OIDC) CreateAccessToken(ctx context.Context, t *AccessToken) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, openGrant, t.FamilyID, t.UserID, t.ClientID, t.CreatedAt.UTC(), t.grantExpiry(), t.SessionSID); err != nil {
			return wrap(err, "grant")
		}
		_, err := tx.db.Exec(ctx, `INSERT INTO access_tokens (`+accessTokenColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			accessTokenRow(t)...)
		return wrap(err, "access token")
	})
}

// ActiveAccessToken returns an unexpired, unrevoked access token. ENOTFOUND otherwise.
func (s *OIDC) ActiveAccessToken(ctx context.Context, id string, now time.Time) (*AccessToken, error) {
	var t AccessToken
	var scopes, aud string
	err := s.db.QueryRow(ctx, `SELECT `+accessTokenColumns+` FROM access_tokens WHERE id = $1 AND expires_at > $2 AND NOT revoked`,
		id, now.UTC()).Scan(&t.ID, &t.FamilyID, &t.ClientID, &t.UserID, &scopes, &aud, &t.CreatedAt, &t.ExpiresAt, &t.Revoked, &t.DPoPJKT)
	if err != nil {
		return nil, wrap(err, "access token")
	}
	t.Scopes, t.Audience = splitList(scopes), splitList(aud)
	return &t, nil
}

// RevokeAccessToken revokes one access token.
func (s *OIDC) RevokeAccessToken(ctx context.Context, id string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE access_tokens SET revoked = TRUE WHERE id = $1 AND NOT revoked`, id)
	return n > 0, err
}

// RefreshToken is the record of an issued refresh token, keyed by its hash.
type RefreshToken struct {
	TokenHash     string
	FamilyID      string
	ClientID      string
	UserID        string
	Scopes        []string
	Audience      []string
	AMR           []string
	AuthTime      time.Time
	AccessTokenID string
	CreatedAt     time.Time
	ExpiresAt     time.Time
	Used          bool
	Revoked       bool
	// DPoPJKT is the thumbprint (RFC 7638) of the key a public client's
	// refresh token is bound to (DPoP, RFC 9449); "" when unbound.
	DPoPJKT string
}

// refreshTokenColumns are the columns of refresh_tokens a row is written
// and read with, in the order of refreshTokenRow.
const refreshTokenColumns = `token_hash, family_id, client_id, user_id, scopes, audience, amr, auth_time, access_token_id,
	created_at, expires_at, used, revoked, dpop_jkt`

// refreshTokenRow is t's values of refreshTokenColumns.
func refreshTokenRow(t *RefreshToken) []any {
	return []any{t.TokenHash, t.FamilyID, t.ClientID, t.UserID, joinList(t.Scopes), joinList(t.Audience), joinList(t.AMR),
		t.AuthTime.UTC(), t.AccessTokenID, t.CreatedAt.UTC(), t.ExpiresAt.UTC(), t.Used, t.Revoked, t.DPoPJKT}
}

// CreateRefreshToken stores an issued refresh token.
func (s *OIDC) CreateRefreshToken(ctx context.Context, t *RefreshToken) error {
	_, err := s.db.Exec(ctx, `INSERT INTO refresh_tokens (`+refreshTokenColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, refreshTokenRow(t)...)
	return wrap(err, "refresh token")
}

// IssueTokens stores a new access token and refresh token and records (or
// extends) their grant. When usedHash is set, that refresh token is used up
// in the same atomic step, and IssueTokens reports false (storing nothing)
// when it was already used or revoked. On PostgreSQL this is one statement,
// so a refresh grant costs one round trip.
func (s *OIDC) IssueTokens(ctx context.Context, usedHash string, at *AccessToken, rt *RefreshToken) (bool, error) {
	atArgs, rtArgs := accessTokenRow(at), refreshTokenRow(rt)
	grantExpires := at.grantExpiry()
	if rt.ExpiresAt.After(grantExpires) {
		grantExpires = rt.ExpiresAt.UTC()
	}
	if s.Dialect() == Postgres {
		args := append(append(append([]any{usedHash}, atArgs...), rtArgs...), grantExpires, at.SessionSID)
		var one int
		err := s.db.QueryRow(ctx, `WITH used AS (
				UPDATE refresh_tokens SET used = TRUE
				WHERE $1 <> '' AND token_hash = $1 AND NOT used AND NOT revoked RETURNING 1
			), ok AS (
				SELECT 1 AS one FROM used UNION ALL SELECT 1 WHERE $1 = ''
			), a AS (
				INSERT INTO access_tokens (`+accessTokenColumns+`)
				SELECT $2, $3, $4, $5, $6, $7, $8::timestamptz, $9::timestamptz, $10::boolean, $11 FROM ok RETURNING 1
			), g AS (
				INSERT INTO token_grants (`+grantColumns+`)
				SELECT $3, $5, $4, $8::timestamptz, $26::timestamptz, $27 FROM ok`+extendGrant+`
				RETURNING 1
			)
			INSERT INTO refresh_tokens (`+refreshTokenColumns+`)
			SELECT $12, $13, $14, $15, $16, $17, $18, $19::timestamptz, $20, $21::timestamptz, $22::timestamptz, $23::boolean,
				$24::boolean, $25 FROM ok
			RETURNING 1`, args...).Scan(&one)
		if errors.Is(err, ErrNoRows) {
			return false, nil
		}
		return err == nil, wrap(err, "refresh token")
	}
	ok := true
	err := s.InTx(ctx, func(tx *Store) error {
		if usedHash != "" {
			if ok, _ = tx.UseRefreshToken(ctx, usedHash); !ok {
				return nil
			}
		}
		if _, err := tx.db.Exec(ctx, openGrant, at.FamilyID, at.UserID, at.ClientID, at.CreatedAt.UTC(), grantExpires, at.SessionSID); err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `INSERT INTO access_tokens (`+accessTokenColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			atArgs...); err != nil {
			return err
		}
		_, err := tx.db.Exec(ctx, `INSERT INTO refresh_tokens (`+refreshTokenColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, rtArgs...)
		return err
	})
	return ok, wrap(err, "refresh token")
}

// RefreshToken returns an unexpired refresh token by hash, used or not. ENOTFOUND otherwise.
func (s *OIDC) RefreshToken(ctx context.Context, tokenHash string, now time.Time) (*RefreshToken, error) {
	var t RefreshToken
	var scopes, aud, amr string
	err := s.db.QueryRow(ctx, `SELECT `+refreshTokenColumns+` FROM refresh_tokens WHERE token_hash = $1 AND expires_at > $2`,
		tokenHash, now.UTC()).Scan(&t.TokenHash, &t.FamilyID, &t.ClientID, &t.UserID, &scopes, &aud, &amr, &t.AuthTime,
		&t.AccessTokenID, &t.CreatedAt, &t.ExpiresAt, &t.Used, &t.Revoked, &t.DPoPJKT)
	if err != nil {
		return nil, wrap(err, "refresh token")
	}
	t.Scopes, t.Audience, t.AMR = splitList(scopes), splitList(aud), splitList(amr)
	return &t, nil
}

// UseRefreshToken marks a refresh token as rotated. It reports false when the
// token was already used or revoked, which the caller treats as reuse.
func (s *OIDC) UseRefreshToken(ctx context.Context, tokenHash string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE refresh_tokens SET used = TRUE WHERE token_hash = $1 AND NOT used AND NOT revoked`, tokenHash)
	return n == 1, err
}

// RevokeRefreshToken revokes one refresh token by hash.
func (s *OIDC) RevokeRefreshToken(ctx context.Context, tokenHash string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE refresh_tokens SET revoked = TRUE WHERE token_hash = $1 AND NOT revoked`, tokenHash)
	return n > 0, err
}

// SetRefreshSuccessor keeps the sealed answer of a rotation on the refresh
// token it used up, with the time of the rotation (D-refresh-grace).
func (s *OIDC) SetRefreshSuccessor(ctx context.Context, tokenHash string, usedAt time.Time, sealed []byte) error {
	_, err := s.db.Exec(ctx, `UPDATE refresh_tokens SET used_at = $2, successor_sealed = $3 WHERE token_hash = $1 AND used`,
		tokenHash, usedAt.UTC(), sealed)
	return err
}

// RefreshSuccessor returns the sealed answer of a used refresh token's
// rotation and its time. ENOTFOUND while there is none (the rotation is
// still running, failed, or was forgotten).
func (s *OIDC) RefreshSuccessor(ctx context.Context, tokenHash string) ([]byte, time.Time, error) {
	var sealed []byte
	var usedAt time.Time
	err := s.db.QueryRow(ctx, `SELECT successor_sealed, used_at FROM refresh_tokens
		WHERE token_hash = $1 AND used AND NOT revoked AND successor_sealed IS NOT NULL`, tokenHash).Scan(&sealed, &usedAt)
	return sealed, usedAt, wrap(err, "refresh successor")
}

// ForgetRefreshSuccessors drops the kept answers of rotations before before.
func (s *OIDC) ForgetRefreshSuccessors(ctx context.Context, before time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE refresh_tokens SET successor_sealed = NULL
		WHERE successor_sealed IS NOT NULL AND used_at < $1`, before.UTC())
	return err
}
