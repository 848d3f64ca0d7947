package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

// CreateCustomer stores a customer. ECONFLICT when the id or organization is taken.
func (s *Store) CreateCustomer(ctx context.Context, c *platform.Customer) error {
	_, err := s.db.Exec(ctx, `INSERT INTO customers (id, name, org_id, created_at) VALUES ($1, $2, $3, $4)`,
		c.ID, c.Name, c.OrgID, c.CreatedAt.UTC())
	return wrap(err, "customer")
}

// Customer returns one customer. ENOTFOUND when missing.
func (s *Store) Customer(ctx context.Context, id string) (*platform.Customer, error) {
	var c platform.Customer
	err := s.db.QueryRow(ctx, `SELECT id, name, org_id, created_at FROM customers WHERE id = $1`, id).
		Scan(&c.ID, &c.Name, &c.OrgID, &c.CreatedAt)
	return &c, wrap(err, "customer")
}

// CustomerByOrg returns the customer whose organization is orgID. ENOTFOUND.
func (s *Store) CustomerByOrg(ctx context.Context, orgID string) (*platform.Customer, error) {
	var c platform.Customer
	err := s.db.QueryRow(ctx, `SELECT id, name, org_id, created_at FROM customers WHERE org_id = $1`, orgID).
		Scan(&c.ID, &c.Name, &c.OrgID, &c.CreatedAt)
	return &c, wrap(err, "customer")
}

// OrgDomainVerified reports whether domain is an e-mail domain recorded for
// the customer whose organization is orgID. Domains are recorded by a
// platform_admin (customer creation), so a recorded domain is a verified one.
func (s *Store) OrgDomainVerified(ctx context.Context, orgID, domain string) (bool, error) {
	var ok bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM customer_domains d JOIN customers c ON c.id = d.customer_id
		WHERE c.org_id = $1 AND d.domain = $2)`, orgID, strings.ToLower(domain)).Scan(&ok)
	return ok, err
}

// AddCustomerDomain lets a customer's users be found by e-mail domain (for
// SSO organizations whose users are created at first sign-in).
func (s *Store) AddCustomerDomain(ctx context.Context, domain, customerID string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO customer_domains (domain, customer_id) VALUES ($1, $2)`,
		strings.ToLower(domain), customerID)
	return wrap(err, "customer domain")
}

// PutConsoleUser sets a user's console role.
func (s *Store) PutConsoleUser(ctx context.Context, u *platform.ConsoleUser) error {
	_, err := s.db.Exec(ctx, `INSERT INTO console_users (user_id, role, customer_id, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role, customer_id = EXCLUDED.customer_id`,
		u.UserID, u.Role, nullString(u.CustomerID), u.CreatedAt.UTC())
	return wrap(err, "console user")
}

// ConsoleUser returns a user's console role. ENOTFOUND when the user has none.
func (s *Store) ConsoleUser(ctx context.Context, userID string) (*platform.ConsoleUser, error) {
	var u platform.ConsoleUser
	var customer sql.NullString
	err := s.db.QueryRow(ctx, `SELECT user_id, role, customer_id, created_at FROM console_users WHERE user_id = $1`, userID).
		Scan(&u.UserID, &u.Role, &customer, &u.CreatedAt)
	u.CustomerID = customer.String
	return &u, wrap(err, "console user")
}

// CreateInstance stores an instance and its connection in one transaction.
func (s *Store) CreateInstance(ctx context.Context, in *platform.Instance, conn *platform.InstanceConnection) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `INSERT INTO instances (id, customer_id, name, url, created_at) VALUES ($1, $2, $3, $4, $5)`,
			in.ID, in.CustomerID, in.Name, in.URL, in.CreatedAt.UTC()); err != nil {
			return wrap(err, "instance")
		}
		_, err := tx.db.Exec(ctx, `INSERT INTO instance_connections (instance_id, oidc_client_id, oidc_redirect_uri,
			idp_app_id, updated_at) VALUES ($1, $2, $3, $4, $5)`, conn.InstanceID, conn.OIDCClientID, conn.OIDCRedirectURI,
			conn.IDPAppID, conn.UpdatedAt.UTC())
		return wrap(err, "instance connection")
	})
}

// ConnectionByClientID returns the instance connection of an OIDC client id. ENOTFOUND.
func (s *Store) ConnectionByClientID(ctx context.Context, clientID string) (*platform.InstanceConnection, error) {
	var c platform.InstanceConnection
	err := s.db.QueryRow(ctx, `SELECT instance_id, oidc_client_id, oidc_redirect_uri, idp_app_id, updated_at
		FROM instance_connections WHERE oidc_client_id = $1`, clientID).
		Scan(&c.InstanceID, &c.OIDCClientID, &c.OIDCRedirectURI, &c.IDPAppID, &c.UpdatedAt)
	return &c, wrap(err, "instance connection")
}

// OrgMemberships answers resolve-org in one statement whatever the address:
// the organizations where a user with this address exists, plus the customer
// organizations that claim its domain, each with its login policy (defaults
// when unset) and, when SSO is allowed, its external providers (one row per
// provider). Known and unknown addresses run the same plan.
func (s *Store) OrgMemberships(ctx context.Context, email, adminOrgID string) ([]platform.OrgMembership, error) {
	email = platform.NormalizeEmail(email)
	domain := email[strings.LastIndexByte(email, '@')+1:]
	rows, err := s.db.Query(ctx, `
		SELECT o.id, o.name, COALESCE(c.id, ''), m.user_exists,
			COALESCE(p.password_allowed, TRUE), COALESCE(p.sso_allowed, FALSE), COALESCE(x.id, ''), COALESCE(x.name, '')
		FROM (
			SELECT org_id, MAX(user_exists) AS user_exists FROM (
				SELECT org_id, 1 AS user_exists FROM users WHERE email = $1
				UNION ALL
				SELECT c2.org_id, 0 FROM customer_domains d JOIN customers c2 ON c2.id = d.customer_id WHERE d.domain = $2
			) found GROUP BY org_id
		) m
		JOIN organizations o ON o.id = m.org_id
		LEFT JOIN customers c ON c.org_id = o.id
		LEFT JOIN login_policies p ON p.org_id = o.id
		LEFT JOIN external_idps x ON x.org_id = o.id AND p.sso_allowed
		ORDER BY o.name, o.id, x.name, x.id`, email, domain)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []platform.OrgMembership
	for rows.Next() {
		var m platform.OrgMembership
		var exists int
		var ref platform.ProviderRef
		if err := rows.Scan(&m.OrgID, &m.OrgName, &m.CustomerID, &exists, &m.PasswordAllowed, &m.SSOAllowed,
			&ref.ID, &ref.Name); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].OrgID == m.OrgID {
			out[n-1].Providers = append(out[n-1].Providers, ref)
			continue
		}
		m.UserExists, m.Internal = exists == 1, m.OrgID == adminOrgID
		if ref.ID != "" {
			m.Providers = []platform.ProviderRef{ref}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Allow counts one hit for key in the current fixed window and reports
// whether it is within limit, and when the window ends.
func (s *Store) Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Time, error) {
	start := now.Truncate(window)
	var hits int
	err := s.db.QueryRow(ctx, `INSERT INTO rate_counters (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1 RETURNING hits`,
		key, start.Unix()).Scan(&hits)
	if err != nil {
		return false, time.Time{}, err
	}
	return hits <= limit, start.Add(window), nil
}

// DeleteOldRateCounters removes windows that ended before now.
func (s *Store) DeleteOldRateCounters(ctx context.Context, before time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM rate_counters WHERE window_start < $1`, before.Unix())
	return err
}
