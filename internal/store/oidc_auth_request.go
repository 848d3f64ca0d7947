package store

import (
	"context"
	"database/sql"
	"time"
)

// AuthRequest is a stored login transaction of the authorization endpoint.
type AuthRequest struct {
	ID                  string
	ClientID            string
	RedirectURI         string
	Scopes              []string
	State               string
	Nonce               string
	ResponseType        string
	ResponseMode        string
	CodeChallenge       string
	CodeChallengeMethod string
	Prompt              []string
	MaxAge              *int64
	LoginHint           string
	UserID              string
	AuthTime            time.Time
	AMR                 []string
	Done                bool
	Exchanged           bool
	CreatedAt           time.Time
	ExpiresAt           time.Time
	// BindingHash is the hash of the browser's login cookie (D-login-binding).
	BindingHash string
	// HintUserID is the subject of the request's id_token_hint.
	HintUserID string
	// PendingUserID passed the first factor; PendingAMR says how.
	PendingUserID string
	PendingAMR    []string
	// LinkIDPID and LinkSubject name an external identity that is linked to
	// LinkUserID once that user signs in with their own credentials (D-linking).
	LinkIDPID   string
	LinkSubject string
	LinkUserID  string
	// DeviceCodeHash names the device authorization this login approves
	// (RFC 8628); such a login issues no code.
	DeviceCodeHash string
	// SessionSID is the sid of the provider session that completed the
	// login; the id_token carries it (back-channel logout).
	SessionSID string
	// UILocales is the request's OIDC ui_locales, bounded (D-languages).
	UILocales string
	// ACR is the authentication context class the request demands (its
	// acr_values; D-step-up), "" for none.
	ACR string
	// DPoPJKT is the thumbprint (RFC 7638) of the DPoP key the request's
	// code is bound to (its dpop_jkt, RFC 9449 section 10), "" for none.
	DPoPJKT string
	// ImpersonationID is the running impersonation the request completed
	// for without a sign-in of the user (its impersonation parameter,
	// D-impersonation), and ActorID that impersonation's support user; ""
	// for every other request.
	ImpersonationID string
	ActorID         string
}

const authRequestColumns = `id, client_id, redirect_uri, scopes, state, nonce, response_type, response_mode,
	code_challenge, code_challenge_method, prompt, max_age, login_hint, user_id, auth_time, amr, done, exchanged,
	created_at, expires_at, binding_hash, hint_user_id, pending_user_id, pending_amr, link_idp_id, link_subject,
	link_user_id, device_code_hash, session_sid, ui_locales, acr, dpop_jkt, impersonation_id, actor_id`

// CreateAuthRequest stores a new login transaction.
func (s *OIDC) CreateAuthRequest(ctx context.Context, a *AuthRequest) error {
	_, err := s.db.Exec(ctx, `INSERT INTO auth_requests (`+authRequestColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
		$21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34)`,
		a.ID, a.ClientID, a.RedirectURI, joinList(a.Scopes), a.State, a.Nonce, a.ResponseType, a.ResponseMode,
		a.CodeChallenge, a.CodeChallengeMethod, joinList(a.Prompt), a.MaxAge, a.LoginHint, a.UserID,
		nullTime(a.AuthTime), joinList(a.AMR), a.Done, a.Exchanged, a.CreatedAt.UTC(), a.ExpiresAt.UTC(),
		a.BindingHash, a.HintUserID, a.PendingUserID, joinList(a.PendingAMR), a.LinkIDPID, a.LinkSubject, a.LinkUserID,
		a.DeviceCodeHash, a.SessionSID, a.UILocales, a.ACR, a.DPoPJKT, a.ImpersonationID, a.ActorID)
	return wrap(err, "auth request")
}

func scanAuthRequest(r Row) (*AuthRequest, error) {
	var a AuthRequest
	var scopes, prompt, amr, pendingAMR string
	var maxAge sql.NullInt64
	var authTime sql.NullTime
	err := r.Scan(&a.ID, &a.ClientID, &a.RedirectURI, &scopes, &a.State, &a.Nonce, &a.ResponseType, &a.ResponseMode,
		&a.CodeChallenge, &a.CodeChallengeMethod, &prompt, &maxAge, &a.LoginHint, &a.UserID, &authTime, &amr,
		&a.Done, &a.Exchanged, &a.CreatedAt, &a.ExpiresAt, &a.BindingHash, &a.HintUserID, &a.PendingUserID,
		&pendingAMR, &a.LinkIDPID, &a.LinkSubject, &a.LinkUserID, &a.DeviceCodeHash, &a.SessionSID, &a.UILocales, &a.ACR, &a.DPoPJKT,
		&a.ImpersonationID, &a.ActorID)
	if err != nil {
		return nil, err
	}
	a.Scopes, a.Prompt, a.AMR, a.PendingAMR = splitList(scopes), splitList(prompt), splitList(amr), splitList(pendingAMR)
	if maxAge.Valid {
		a.MaxAge = &maxAge.Int64
	}
	if authTime.Valid {
		a.AuthTime = authTime.Time
	}
	return &a, nil
}

// AuthRequest returns an unexpired login transaction. ENOTFOUND otherwise.
func (s *OIDC) AuthRequest(ctx context.Context, id string, now time.Time) (*AuthRequest, error) {
	a, err := scanAuthRequest(s.db.QueryRow(ctx, `SELECT `+authRequestColumns+`
		FROM auth_requests WHERE id = $1 AND expires_at > $2`, id, now.UTC()))
	return a, wrap(err, "auth request")
}

// AuthRequestByCodeHash returns the transaction a code was issued for, even
// when the code was already exchanged (the caller decides what replay means).
func (s *OIDC) AuthRequestByCodeHash(ctx context.Context, codeHash string, now time.Time) (*AuthRequest, error) {
	a, err := scanAuthRequest(s.db.QueryRow(ctx, `SELECT `+authRequestColumns+`
		FROM auth_requests WHERE code_hash = $1 AND expires_at > $2`, codeHash, now.UTC()))
	return a, wrap(err, "auth request")
}

// SetPendingUser records who passed the first factor of a login that still
// needs a second one, and how (amr).
func (s *OIDC) SetPendingUser(ctx context.Context, authRequestID, userID string, amr []string) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET pending_user_id = $2, pending_amr = $3 WHERE id = $1 AND NOT done`,
		authRequestID, userID, joinList(amr))
}

// SetPendingLink records an external identity that waits for the proof of
// the local account userID (D-linking). ENOTFOUND when the login is over.
func (s *OIDC) SetPendingLink(ctx context.Context, authRequestID, idpID, subject, userID string) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET link_idp_id = $2, link_subject = $3, link_user_id = $4
		WHERE id = $1 AND NOT done`, authRequestID, idpID, subject, userID)
}

// CompleteAuthRequest records the authenticated user of a transaction.
func (s *OIDC) CompleteAuthRequest(ctx context.Context, id, userID string, authTime time.Time, amr []string, sid string) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET user_id = $2, auth_time = $3, amr = $4, done = TRUE,
		session_sid = $5 WHERE id = $1 AND NOT done`, id, userID, authTime.UTC(), joinList(amr), sid)
}

// SaveAuthCode attaches the hash of the issued code to a completed transaction
// and shortens its life to the code's lifetime.
func (s *OIDC) SaveAuthCode(ctx context.Context, id, codeHash string, expiresAt time.Time) error {
	return s.execOne(ctx, "auth request", `UPDATE auth_requests SET code_hash = $2, expires_at = $3
		WHERE id = $1 AND done AND code_hash IS NULL`, id, codeHash, expiresAt.UTC())
}

// MarkAuthRequestExchanged records that the code was redeemed. It reports false
// when another exchange won the race, so a code is redeemed at most once.
func (s *OIDC) MarkAuthRequestExchanged(ctx context.Context, id string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE auth_requests SET exchanged = TRUE WHERE id = $1 AND NOT exchanged`, id)
	return n == 1, err
}
