package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/platform/platform/internal/platform"
)

const appColumns = `app_id, client_id, name, kind, redirect_uris, post_logout_redirect_uris, secret_hash, management, created_at,
	auth_method, jwks, user_id, require_par, backchannel_logout_uri, device_flow, require_dpop,
	registered_customer_id, registration_token_id, registration_hash,
	metadata_customer_id, metadata_fetched_at, metadata_expires_at, client_uri, logo_uri, blocked_at`

func scanApp(r Row) (*platform.Application, error) {
	var a platform.Application
	var redirects, logouts string
	var fetched, expires, blocked sql.NullTime
	if err := r.Scan(&a.AppID, &a.ClientID, &a.Name, &a.Kind, &redirects, &logouts, &a.SecretHash, &a.Management, &a.CreatedAt,
		&a.AuthMethod, &a.JWKS, &a.UserID, &a.RequirePAR, &a.BackchannelLogoutURI, &a.DeviceFlow, &a.RequireDPoP,
		&a.RegisteredCustomerID, &a.RegistrationTokenID, &a.RegistrationHash,
		&a.MetadataCustomerID, &fetched, &expires, &a.ClientURI, &a.LogoURI, &blocked); err != nil {
		return nil, err
	}
	a.MetadataFetchedAt, a.MetadataExpiresAt, a.BlockedAt = fetched.Time, expires.Time, blocked.Time
	if err := json.Unmarshal([]byte(redirects), &a.RedirectURIs); err != nil {
		return nil, fmt.Errorf("application %s redirect_uris: %w", a.AppID, err)
	}
	if err := json.Unmarshal([]byte(logouts), &a.PostLogoutRedirectURIs); err != nil {
		return nil, fmt.Errorf("application %s post_logout_redirect_uris: %w", a.AppID, err)
	}
	return &a, nil
}

// CreateApplication validates and inserts an application. ECONFLICT when the
// client id or app id is taken.
func (s *OIDC) CreateApplication(ctx context.Context, a *platform.Application) error {
	if err := a.Validate(); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO applications (`+appColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
		$10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`, appValues(a)...)
	return wrap(err, "application")
}

// appValues are a's columns in the order of appColumns.
func appValues(a *platform.Application) []any {
	return []any{a.AppID, a.ClientID, a.Name, a.Kind, jsonList(a.RedirectURIs), jsonList(a.PostLogoutRedirectURIs),
		a.SecretHash, a.Management, a.CreatedAt.UTC(), a.AuthMethod, a.JWKS, a.UserID, a.RequirePAR, a.BackchannelLogoutURI,
		a.DeviceFlow, a.RequireDPoP, a.RegisteredCustomerID, a.RegistrationTokenID, a.RegistrationHash,
		a.MetadataCustomerID, nullTime(a.MetadataFetchedAt), nullTime(a.MetadataExpiresAt), a.ClientURI, a.LogoURI, nullTime(a.BlockedAt)}
}

// ApplicationByClientID returns the application with this client id. ENOTFOUND when missing.
func (s *OIDC) ApplicationByClientID(ctx context.Context, clientID string) (*platform.Application, error) {
	a, err := scanApp(s.db.QueryRow(ctx, `SELECT `+appColumns+` FROM applications WHERE client_id = $1`, clientID))
	return a, wrap(err, "application")
}

// ApplicationByAppID returns the application with this app id. ENOTFOUND when missing.
func (s *OIDC) ApplicationByAppID(ctx context.Context, appID string) (*platform.Application, error) {
	a, err := scanApp(s.db.QueryRow(ctx, `SELECT `+appColumns+` FROM applications WHERE app_id = $1`, appID))
	return a, wrap(err, "application")
}

// Applications lists every application by name.
func (s *OIDC) Applications(ctx context.Context) ([]*platform.Application, error) {
	return queryAll(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM applications ORDER BY name, app_id`)
}

// UpdateApplication replaces the mutable fields of an application: name,
// client id, redirect URIs, authentication (method, secret, keys),
// require_par, require_dpop and the back-channel logout URI. ENOTFOUND, EINVALID,
// ECONFLICT.
func (s *OIDC) UpdateApplication(ctx context.Context, a *platform.Application) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return s.execOne(ctx, "application", `UPDATE applications SET client_id = $2, name = $3, redirect_uris = $4,
		post_logout_redirect_uris = $5, auth_method = $6, secret_hash = $7, jwks = $8, require_par = $9,
		backchannel_logout_uri = $10, device_flow = $11, require_dpop = $12 WHERE app_id = $1`, a.AppID, a.ClientID, a.Name,
		jsonList(a.RedirectURIs), jsonList(a.PostLogoutRedirectURIs), a.AuthMethod, a.SecretHash, a.JWKS, a.RequirePAR,
		a.BackchannelLogoutURI, a.DeviceFlow, a.RequireDPoP)
}

// UseClientAssertion records the jti of a client's assertion until it
// expires; false when the client used it already (a replay).
func (s *OIDC) UseClientAssertion(ctx context.Context, clientID, jti string, expires time.Time) (bool, error) {
	_, err := s.db.Exec(ctx, `INSERT INTO client_assertions (client_id, jti, expires_at) VALUES ($1, $2, $3)`,
		clientID, jti, expires.UTC())
	if errors.Is(err, ErrUnique) {
		return false, nil
	}
	return err == nil, err
}

// UseDPoPProof records a DPoP proof (its hash over the key's thumbprint
// and its jti) until its iat window ends; false when it was seen already, at
// this replica or another (a replay, RFC 9449 section 11.1).
func (s *OIDC) UseDPoPProof(ctx context.Context, proofHash string, expires time.Time) (bool, error) {
	_, err := s.db.Exec(ctx, `INSERT INTO dpop_proofs (proof_hash, expires_at) VALUES ($1, $2)`, proofHash, expires.UTC())
	if errors.Is(err, ErrUnique) {
		return false, nil
	}
	return err == nil, err
}

// DeleteApplication removes an application. ENOTFOUND when missing.
func (s *OIDC) DeleteApplication(ctx context.Context, appID string) error {
	return s.execOne(ctx, "application", `DELETE FROM applications WHERE app_id = $1`, appID)
}

// ApplicationRedirectURIs lists the registered redirect URIs of every
// application (the provider derives the origins it answers cross-origin
// requests of from them).
func (s *OIDC) ApplicationRedirectURIs(ctx context.Context) ([]string, error) {
	lists, err := queryAll(ctx, s.db, func(r Row) (string, error) {
		var v string
		return v, r.Scan(&v)
	}, `SELECT redirect_uris FROM applications WHERE redirect_uris <> '[]'`)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lists {
		var uris []string
		if err := json.Unmarshal([]byte(l), &uris); err != nil {
			return nil, fmt.Errorf("redirect_uris: %w", err)
		}
		out = append(out, uris...)
	}
	return out, nil
}
