package store

import (
	"context"
	"time"
)

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

const ssoStateColumns = `state_hash, auth_request_id, idp_id, nonce, code_verifier, created_at, expires_at`

// CreateSSOState stores an external login transaction.
func (s *Identity) CreateSSOState(ctx context.Context, st *SSOState) error {
	_, err := s.db.Exec(ctx, `INSERT INTO sso_states (`+ssoStateColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`, st.StateHash, st.AuthRequestID, st.IDPID, st.Nonce, st.CodeVerifier,
		st.CreatedAt.UTC(), st.ExpiresAt.UTC())
	return wrap(err, "sso state")
}

// TakeSSOState returns and deletes an unexpired external login transaction, so
// a state is accepted once. ENOTFOUND otherwise.
func (s *Identity) TakeSSOState(ctx context.Context, stateHash string, now time.Time) (*SSOState, error) {
	var st SSOState
	err := s.db.QueryRow(ctx, `DELETE FROM sso_states WHERE state_hash = $1 AND expires_at > $2
		RETURNING `+ssoStateColumns, stateHash, now.UTC()).
		Scan(&st.StateHash, &st.AuthRequestID, &st.IDPID, &st.Nonce, &st.CodeVerifier, &st.CreatedAt, &st.ExpiresAt)
	return &st, wrap(err, "sso state")
}
