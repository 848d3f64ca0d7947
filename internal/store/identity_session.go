package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// Session is the identity provider's own browser session.
type Session struct {
	IDHash string
	// SID names the session in id_tokens and logout tokens (never the
	// cookie or its hash); a new sign-in of the same user keeps it.
	SID       string
	UserID    string
	AuthTime  time.Time
	AMR       []string
	CreatedAt time.Time
	ExpiresAt time.Time
	// ProvedAt is when the user last proved themselves again in this
	// session (the account page's confirmation); zero when not since the
	// sign-in (AuthTime).
	ProvedAt time.Time
	// UserAgent is the browser's User-Agent at sign-in (at most
	// MaxUserAgent bytes); Address the client address the session was last
	// used from, at LastSeenAt (the sign-in's time when not used since).
	UserAgent  string
	Address    string
	LastSeenAt time.Time
}

// MaxUserAgent is the longest User-Agent a session keeps; a longer one is cut.
const MaxUserAgent = 512

const sessionColumns = `id_hash, user_id, auth_time, amr, created_at, expires_at, sid, proved_at, user_agent, client_address, last_seen_at`

func scanSession(r Row) (Session, error) {
	var ss Session
	var amr string
	var proved, seen sql.NullTime
	err := r.Scan(&ss.IDHash, &ss.UserID, &ss.AuthTime, &amr, &ss.CreatedAt, &ss.ExpiresAt, &ss.SID, &proved,
		&ss.UserAgent, &ss.Address, &seen)
	ss.AMR, ss.ProvedAt, ss.LastSeenAt = splitList(amr), orTime(proved, time.Time{}), orTime(seen, ss.CreatedAt)
	return ss, err
}

// CreateSession stores a browser session, last seen when it was created.
func (s *Identity) CreateSession(ctx context.Context, ss *Session) error {
	ua := ss.UserAgent // the browser's word: cut, and only valid UTF-8 kept (PostgreSQL refuses the rest)
	if len(ua) > MaxUserAgent {
		ua = ua[:MaxUserAgent]
	}
	ua = strings.ToValidUTF8(ua, "")
	_, err := s.db.Exec(ctx, `INSERT INTO idp_sessions (`+sessionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $5)`,
		ss.IDHash, ss.UserID, ss.AuthTime.UTC(), joinList(ss.AMR), ss.CreatedAt.UTC(), ss.ExpiresAt.UTC(), ss.SID, ua, ss.Address)
	return wrap(err, "session")
}

// SeeSession records that the session whose cookie hashes to idHash was
// used at at from address.
func (s *Identity) SeeSession(ctx context.Context, idHash, address string, at time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE idp_sessions SET last_seen_at = $2, client_address = $3 WHERE id_hash = $1`,
		idHash, at.UTC(), address)
	return err
}

// Session returns an unexpired session by the hash of its cookie. ENOTFOUND otherwise.
func (s *Identity) Session(ctx context.Context, idHash string, now time.Time) (*Session, error) {
	ss, err := queryOne(ctx, s.db, "session", scanSession, `SELECT `+sessionColumns+` FROM idp_sessions
		WHERE id_hash = $1 AND expires_at > $2`, idHash, now.UTC())
	if err != nil {
		return nil, err
	}
	return ss, nil
}

// ProveSession records that the user of a browser session proved
// themselves again at at. ENOTFOUND when the session is gone.
func (s *Identity) ProveSession(ctx context.Context, idHash string, at time.Time) error {
	return s.execOne(ctx, "session", `UPDATE idp_sessions SET proved_at = $2 WHERE id_hash = $1`, idHash, at.UTC())
}

// DeleteSession ends one browser session.
func (s *Identity) DeleteSession(ctx context.Context, idHash string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM idp_sessions WHERE id_hash = $1`, idHash)
	return err
}

// DeleteUserSessions ends every browser session of a user.
func (s *Identity) DeleteUserSessions(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM idp_sessions WHERE user_id = $1`, userID)
	return err
}
