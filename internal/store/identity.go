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

// CreateOrganization inserts an organization. ECONFLICT when the id exists.
func (s *Store) CreateOrganization(ctx context.Context, o *platform.Organization) error {
	_, err := s.db.Exec(ctx, `INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)`,
		o.ID, o.Name, o.CreatedAt.UTC())
	return wrap(err, "organization")
}

// Organization returns one organization. ENOTFOUND when missing.
func (s *Store) Organization(ctx context.Context, id string) (*platform.Organization, error) {
	var o platform.Organization
	err := s.db.QueryRow(ctx, `SELECT id, name, created_at FROM organizations WHERE id = $1`, id).
		Scan(&o.ID, &o.Name, &o.CreatedAt)
	return &o, wrap(err, "organization")
}

// Organizations lists every organization by name.
func (s *Store) Organizations(ctx context.Context) ([]*platform.Organization, error) {
	return queryAll(ctx, s.db, func(r Row) (*platform.Organization, error) {
		var o platform.Organization
		err := r.Scan(&o.ID, &o.Name, &o.CreatedAt)
		return &o, err
	}, `SELECT id, name, created_at FROM organizations ORDER BY name, id`)
}

const userColumns = `id, org_id, email, email_verified, name, password_hash, failed_logins, locked_until, created_at, updated_at`

func scanUser(r Row) (*platform.User, error) {
	var u platform.User
	var locked sql.NullTime
	err := r.Scan(&u.ID, &u.OrgID, &u.Email, &u.EmailVerified, &u.Name, &u.PasswordHash,
		&u.FailedLogins, &locked, &u.CreatedAt, &u.UpdatedAt)
	if locked.Valid {
		u.LockedUntil = locked.Time
	}
	return &u, err
}

// CreateUser inserts a user; the e-mail is normalized. ECONFLICT when the
// organization already has that address.
func (s *Store) CreateUser(ctx context.Context, u *platform.User) error {
	u.Email = platform.NormalizeEmail(u.Email)
	_, err := s.db.Exec(ctx, `INSERT INTO users (`+userColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		u.ID, u.OrgID, u.Email, u.EmailVerified, u.Name, u.PasswordHash, u.FailedLogins,
		nullTime(u.LockedUntil), u.CreatedAt.UTC(), u.UpdatedAt.UTC())
	return wrap(err, "user")
}

// User returns one user by id. ENOTFOUND when missing.
func (s *Store) User(ctx context.Context, id string) (*platform.User, error) {
	u, err := scanUser(s.db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	return u, wrap(err, "user")
}

// UsersByEmail returns the users with this address, optionally within one
// organization (orgID != ""), ordered by organization.
func (s *Store) UsersByEmail(ctx context.Context, email, orgID string) ([]*platform.User, error) {
	return queryAll(ctx, s.db, scanUser, `SELECT `+userColumns+` FROM users
		WHERE email = $1 AND ($2 = '' OR org_id = $2) ORDER BY org_id`, platform.NormalizeEmail(email), orgID)
}

// ReserveLoginAttempt counts an attempt before its credential is checked, so
// concurrent attempts cannot overtake the lockout: it answers false, counting
// nothing, while the account is locked at now; otherwise it counts the
// attempt (restarting the count after an expired lock), locks the account
// until lockUntil when the count reaches maxAttempts, and returns the count.
// A successful attempt clears the count with ResetLoginFailures. (NULLIF of
// the column with itself is a NULL of the column's type, which PostgreSQL
// needs to type $3.)
func (s *Store) ReserveLoginAttempt(ctx context.Context, userID string, maxAttempts int, lockUntil, now time.Time) (int, bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `UPDATE users SET
		failed_logins = CASE WHEN locked_until IS NOT NULL THEN 1 ELSE failed_logins + 1 END,
		locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL THEN 1 ELSE failed_logins + 1 END) >= $2
			THEN $3 ELSE NULLIF(locked_until, locked_until) END
		WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $4)
		RETURNING failed_logins`, userID, maxAttempts, lockUntil.UTC(), now.UTC()).Scan(&n)
	if errors.Is(err, ErrNoRows) {
		return 0, false, nil
	}
	return n, err == nil, wrap(err, "user")
}

// RecordLoginFailure counts a failed attempt and locks the account until
// lockUntil once the count reaches maxFailures. It returns the new count.
func (s *Store) RecordLoginFailure(ctx context.Context, userID string, maxFailures int, lockUntil time.Time) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `UPDATE users SET failed_logins = failed_logins + 1,
		locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3 ELSE locked_until END
		WHERE id = $1 RETURNING failed_logins`, userID, maxFailures, lockUntil.UTC()).Scan(&n)
	return n, wrap(err, "user")
}

// ResetLoginFailures clears the failure count and any lock after a success.
func (s *Store) ResetLoginFailures(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `UPDATE users SET failed_logins = 0, locked_until = NULL
		WHERE id = $1 AND (failed_logins <> 0 OR locked_until IS NOT NULL)`, userID)
	return err
}

// SetPassword replaces a user's password hash and, in the same transaction,
// ends everything the user was signed in with (EndUserCredentials): after a
// reset no token or session issued before it is accepted (D-reset). ENOTFOUND.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	now := time.Now().UTC()
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1`, userID, hash, now)
		if err != nil {
			return err
		}
		return tx.EndUserCredentials(ctx, userID, now)
	})
}

const appColumns = `app_id, client_id, name, kind, redirect_uris, post_logout_redirect_uris, secret_hash, management, created_at`

func scanApp(r Row) (*platform.Application, error) {
	var a platform.Application
	var redirects, logouts string
	if err := r.Scan(&a.AppID, &a.ClientID, &a.Name, &a.Kind, &redirects, &logouts, &a.SecretHash, &a.Management, &a.CreatedAt); err != nil {
		return nil, err
	}
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
func (s *Store) CreateApplication(ctx context.Context, a *platform.Application) error {
	if err := a.Validate(); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO applications (`+appColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		a.AppID, a.ClientID, a.Name, a.Kind, jsonList(a.RedirectURIs), jsonList(a.PostLogoutRedirectURIs),
		a.SecretHash, a.Management, a.CreatedAt.UTC())
	return wrap(err, "application")
}

// ApplicationByClientID returns the application with this client id. ENOTFOUND when missing.
func (s *Store) ApplicationByClientID(ctx context.Context, clientID string) (*platform.Application, error) {
	a, err := scanApp(s.db.QueryRow(ctx, `SELECT `+appColumns+` FROM applications WHERE client_id = $1`, clientID))
	return a, wrap(err, "application")
}

// ApplicationByAppID returns the application with this app id. ENOTFOUND when missing.
func (s *Store) ApplicationByAppID(ctx context.Context, appID string) (*platform.Application, error) {
	a, err := scanApp(s.db.QueryRow(ctx, `SELECT `+appColumns+` FROM applications WHERE app_id = $1`, appID))
	return a, wrap(err, "application")
}

// Applications lists every application by name.
func (s *Store) Applications(ctx context.Context) ([]*platform.Application, error) {
	return queryAll(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM applications ORDER BY name, app_id`)
}

// UpdateApplication replaces the mutable fields (name, client id, redirect
// URIs) of an application. ENOTFOUND, EINVALID, ECONFLICT.
func (s *Store) UpdateApplication(ctx context.Context, a *platform.Application) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return s.execOne(ctx, "application", `UPDATE applications SET client_id = $2, name = $3, redirect_uris = $4,
		post_logout_redirect_uris = $5 WHERE app_id = $1`, a.AppID, a.ClientID, a.Name,
		jsonList(a.RedirectURIs), jsonList(a.PostLogoutRedirectURIs))
}

// DeleteApplication removes an application. ENOTFOUND when missing.
func (s *Store) DeleteApplication(ctx context.Context, appID string) error {
	return s.execOne(ctx, "application", `DELETE FROM applications WHERE app_id = $1`, appID)
}
