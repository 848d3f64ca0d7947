package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Branding is a customer organization's look and e-mail sender
// (customer_branding, D-branding, D-org-mail): each field "" for the
// platform's default. LogoSHA256 names a row of branding_logos.
type Branding struct {
	CustomerID   string
	DisplayName  string
	PrimaryColor string
	LogoSHA256   string
	MailFromName string
	MailReplyTo  string
	UpdatedAt    time.Time
}

// Logo is a stored logo: a PNG the platform re-encoded, by its SHA-256.
type Logo struct {
	SHA256        string
	PNG           []byte
	Width, Height int
}

const brandingColumns = `customer_id, display_name, primary_color, logo_sha256, mail_from_name, mail_reply_to, updated_at`

func scanBranding(r Row) (Branding, error) {
	var b Branding
	err := r.Scan(&b.CustomerID, &b.DisplayName, &b.PrimaryColor, &b.LogoSHA256, &b.MailFromName, &b.MailReplyTo, &b.UpdatedAt)
	return b, err
}

// CustomerBranding returns a customer's branding; a customer that has set
// none gets the empty one (the default look). ENOTFOUND when the customer
// does not exist.
func (s *Tenancy) CustomerBranding(ctx context.Context, customerID string) (*Branding, error) {
	b, err := queryOne(ctx, s.db, "branding", scanBranding, `SELECT `+brandingColumns+` FROM customer_branding WHERE customer_id = $1`, customerID)
	if platform.ErrorCode(err) != platform.ENOTFOUND {
		return b, err
	}
	if _, err := s.Customer(ctx, customerID); err != nil {
		return nil, err
	}
	return &Branding{CustomerID: customerID}, nil
}

// OrgBranding returns the branding of the customer whose organization is
// orgID, the empty one when it has none or the organization is no
// customer's (the administrator organization).
func (s *Tenancy) OrgBranding(ctx context.Context, orgID string) (*Branding, error) {
	b, err := queryOne(ctx, s.db, "branding", scanBranding, `SELECT b.customer_id, b.display_name, b.primary_color, b.logo_sha256,
		b.mail_from_name, b.mail_reply_to, b.updated_at FROM customer_branding b JOIN customers c ON c.id = b.customer_id
		WHERE c.org_id = $1`, orgID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return &Branding{}, nil
	}
	return b, err
}

// PutBranding stores a customer's branding, replacing the earlier one. The
// caller has loaded the customer (its foreign key refuses any other).
func (s *Tenancy) PutBranding(ctx context.Context, b *Branding) error {
	_, err := s.db.Exec(ctx, `INSERT INTO customer_branding (`+brandingColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (customer_id) DO UPDATE SET display_name = EXCLUDED.display_name, primary_color = EXCLUDED.primary_color,
		logo_sha256 = EXCLUDED.logo_sha256, mail_from_name = EXCLUDED.mail_from_name, mail_reply_to = EXCLUDED.mail_reply_to,
		updated_at = EXCLUDED.updated_at`, b.CustomerID, b.DisplayName, b.PrimaryColor, b.LogoSHA256, b.MailFromName,
		b.MailReplyTo, b.UpdatedAt.UTC())
	return wrap(err, "branding")
}

// PutLogo stores a logo under its hash; a logo already stored stays as it is.
func (s *Tenancy) PutLogo(ctx context.Context, l *Logo, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO branding_logos (sha256, png, width, height, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (sha256) DO NOTHING`, l.SHA256, l.PNG, l.Width, l.Height, now.UTC())
	return wrap(err, "logo")
}

// Logo returns the logo of hash sha. ENOTFOUND.
func (s *Tenancy) Logo(ctx context.Context, sha string) (*Logo, error) {
	return queryOne(ctx, s.db, "logo", func(r Row) (Logo, error) {
		var l Logo
		err := r.Scan(&l.SHA256, &l.PNG, &l.Width, &l.Height)
		return l, err
	}, `SELECT sha256, png, width, height FROM branding_logos WHERE sha256 = $1`, sha)
}

// DeleteUnusedLogos removes the logos no customer shows any more and
// answers how many.
func (s *Tenancy) DeleteUnusedLogos(ctx context.Context) (int64, error) {
	n, err := s.db.Exec(ctx, `DELETE FROM branding_logos WHERE sha256 NOT IN (SELECT logo_sha256 FROM customer_branding)`)
	return n, wrap(err, "logo")
}
