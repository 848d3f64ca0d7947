package store

import (
	"context"
	"strings"

	"github.com/platform/platform/internal/platform"
)

var organizations = table[platform.Organization]{"organizations", "organization", `id, name, created_at`,
	func(r Row) (platform.Organization, error) {
		var o platform.Organization
		return o, r.Scan(&o.ID, &o.Name, &o.CreatedAt)
	}}

// CreateOrganization inserts an organization. ECONFLICT when the id exists.
func (s *Identity) CreateOrganization(ctx context.Context, o *platform.Organization) error {
	return organizations.insert(ctx, s.db, o.ID, o.Name, o.CreatedAt.UTC())
}

// Organization returns one organization. ENOTFOUND when missing.
func (s *Identity) Organization(ctx context.Context, id string) (*platform.Organization, error) {
	return organizations.get(ctx, s.db, id)
}

// Organizations lists every organization by name.
func (s *Identity) Organizations(ctx context.Context) ([]*platform.Organization, error) {
	return queryAll(ctx, s.db, func(r Row) (*platform.Organization, error) {
		o, err := organizations.scan(r)
		return &o, err
	}, organizations.selectFrom()+` ORDER BY name, id`)
}

// OrgMemberships answers resolve-org in one statement whatever the address:
// the organizations where a user with this address exists, plus the customer
// organization that holds its domain verified (D-verified-domains), each
// with its login policy (defaults when unset) and, when SSO is allowed, its
// external providers (one row per provider), and the customer's branding.
// Known and unknown addresses run the same plan.
func (s *Identity) OrgMemberships(ctx context.Context, email, adminOrgID string) ([]platform.OrgMembership, error) {
	email = platform.NormalizeEmail(email)
	domain := email[strings.LastIndexByte(email, '@')+1:]
	rows, err := s.db.Query(ctx, `
		SELECT o.id, o.name, COALESCE(c.id, ''), m.user_exists, m.domain_verified,
			COALESCE(p.password_allowed, TRUE), COALESCE(p.sso_allowed, FALSE), COALESCE(x.id, ''), COALESCE(x.name, ''),
			COALESCE(p.passkey_allowed, FALSE), COALESCE(p.passkey_required, FALSE),
			COALESCE(b.display_name, ''), COALESCE(b.primary_color, ''), COALESCE(b.logo_sha256, '')
		FROM (
			SELECT org_id, MAX(user_exists) AS user_exists, MAX(domain_verified) AS domain_verified FROM (
				SELECT org_id, 1 AS user_exists, 0 AS domain_verified FROM users WHERE email = $1 AND NOT service
				UNION ALL
				SELECT c2.org_id, 0, 1 FROM customer_domain_claims d JOIN customers c2 ON c2.id = d.customer_id
					WHERE d.domain = $2 AND d.verified_at IS NOT NULL
			) found GROUP BY org_id
		) m
		JOIN organizations o ON o.id = m.org_id
		LEFT JOIN customers c ON c.org_id = o.id
		LEFT JOIN login_policies p ON p.org_id = o.id
		LEFT JOIN customer_branding b ON b.customer_id = c.id
		LEFT JOIN external_idps x ON x.org_id = o.id AND p.sso_allowed
		ORDER BY o.name, o.id, x.name, x.id`, email, domain)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []platform.OrgMembership
	for rows.Next() {
		var m platform.OrgMembership
		var exists, verified int
		var ref platform.ProviderRef
		if err := rows.Scan(&m.OrgID, &m.OrgName, &m.CustomerID, &exists, &verified, &m.PasswordAllowed, &m.SSOAllowed,
			&ref.ID, &ref.Name, &m.PasskeyAllowed, &m.PasskeyRequired,
			&m.Brand.DisplayName, &m.Brand.PrimaryColor, &m.Brand.LogoSHA256); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].OrgID == m.OrgID {
			out[n-1].Providers = append(out[n-1].Providers, ref)
			continue
		}
		m.UserExists, m.DomainVerified, m.Internal = exists == 1, verified == 1, m.OrgID == adminOrgID
		if ref.ID != "" {
			m.Providers = []platform.ProviderRef{ref}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
