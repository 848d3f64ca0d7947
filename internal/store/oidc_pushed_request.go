package store

import (
	"context"
	"time"
)

// CreatePushedRequest stores the parameters of a pushed authorization
// request (RFC 9126) under the hash of its request_uri.
func (s *OIDC) CreatePushedRequest(ctx context.Context, requestURIHash, clientID, params string, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO pushed_requests (request_uri_hash, client_id, params, expires_at) VALUES ($1, $2, $3, $4)`,
		requestURIHash, clientID, params, expires.UTC())
	return wrap(err, "pushed request")
}

// TakePushedRequest returns and deletes the parameters of an unexpired
// pushed request of clientID, so a request_uri is used once and only by
// the client that pushed it (another client's attempt leaves it in place).
// ENOTFOUND otherwise.
func (s *OIDC) TakePushedRequest(ctx context.Context, requestURIHash, clientID string, now time.Time) (string, error) {
	var params string
	err := s.db.QueryRow(ctx, `DELETE FROM pushed_requests WHERE request_uri_hash = $1 AND client_id = $2 AND expires_at > $3
		RETURNING params`, requestURIHash, clientID, now.UTC()).Scan(&params)
	return params, wrap(err, "pushed request")
}
