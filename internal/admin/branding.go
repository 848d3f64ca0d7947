package admin

import (
	"context"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/store"
)

// brandings is a customer organization's look and e-mail sender
// (D-branding, D-org-mail): read and changed by who manages the customer's
// configuration (owner, admin, account_manager, platform_admin).
type brandings struct {
	*core
	issuer string // where the identity provider serves logos
}

// Branding is a customer's branding; each field "" is the platform's
// default. TextColor and Contrast say how text on PrimaryColor is shown
// (branding.TextColor); LogoURL is the logo's content-addressed URL.
type Branding struct {
	CustomerID   string     `json:"customerId"`
	DisplayName  string     `json:"displayName"`
	PrimaryColor string     `json:"primaryColor"`
	TextColor    string     `json:"textColor"`
	Contrast     float64    `json:"contrast"`
	LogoURL      string     `json:"logoUrl"`
	MailFromName string     `json:"mailFromName"`
	MailReplyTo  string     `json:"mailReplyTo"`
	UpdatedAt    *time.Time `json:"updatedAt"`
}

// BrandingInput changes a customer's branding; nil fields stay, "" resets
// one to the default.
type BrandingInput struct {
	DisplayName  *string `json:"displayName,omitempty"`
	PrimaryColor *string `json:"primaryColor,omitempty"`
	MailFromName *string `json:"mailFromName,omitempty"`
	MailReplyTo  *string `json:"mailReplyTo,omitempty"`
}

// CustomerBranding returns a customer's branding.
func (s *brandings) CustomerBranding(ctx context.Context, c *access.Caller, customerID string) (*Branding, error) {
	return viewing(s.brandingView)(ofCustomer(ctx, s.core, c, OpBrandingGet, customerID, s.store.CustomerBranding))
}

// PutCustomerBranding changes a customer's name, colour and e-mail sender.
// EINVALID for a colour that is not #rrggbb or cannot carry readable text,
// a name with line breaks or control characters, a Reply-To that is not
// one address.
func (s *brandings) PutCustomerBranding(ctx context.Context, c *access.Caller, customerID string, in BrandingInput) (*Branding, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBrandingPut); err != nil {
		return nil, err
	}
	var clean BrandingInput
	var err error
	for _, f := range []struct {
		in, out **string
		check   func(string) (string, error)
	}{
		{&in.DisplayName, &clean.DisplayName, func(v string) (string, error) { return branding.CleanName("displayName", v) }},
		{&in.PrimaryColor, &clean.PrimaryColor, branding.ParseColor},
		{&in.MailFromName, &clean.MailFromName, func(v string) (string, error) { return branding.CleanName("mailFromName", v) }},
		{&in.MailReplyTo, &clean.MailReplyTo, branding.ParseReplyTo},
	} {
		if *f.in == nil {
			continue
		}
		v, err := f.check(**f.in)
		if err != nil {
			return nil, err
		}
		*f.out = &v
	}
	var out *store.Branding
	err = s.audited(ctx, c, OpBrandingPut, on(customerID, "customers", customerID, "branding"), func(tx *store.Store) error {
		b, err := tx.CustomerBranding(ctx, customerID)
		if err != nil {
			return err
		}
		for _, f := range []struct {
			in  *string
			out *string
		}{{clean.DisplayName, &b.DisplayName}, {clean.PrimaryColor, &b.PrimaryColor},
			{clean.MailFromName, &b.MailFromName}, {clean.MailReplyTo, &b.MailReplyTo}} {
			if f.in != nil {
				*f.out = *f.in
			}
		}
		b.UpdatedAt = s.stamp()
		out = b
		return tx.PutBranding(ctx, b)
	})
	if err != nil {
		return nil, err
	}
	return s.brandingView(out), nil
}

// PutCustomerLogo checks, re-encodes and stores a customer's logo
// (branding.ProcessLogo) and shows it from now on. EINVALID for a file
// that is not a PNG, JPEG or GIF within the bounds.
func (s *brandings) PutCustomerLogo(ctx context.Context, c *access.Caller, customerID string, raw []byte) (*Branding, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBrandingLogoPut); err != nil {
		return nil, err
	}
	logo, err := branding.ProcessLogo(raw)
	if err != nil {
		return nil, err
	}
	return s.setLogo(ctx, c, OpBrandingLogoPut, customerID, logo)
}

// DeleteCustomerLogo removes a customer's logo: its pages show the name alone.
func (s *brandings) DeleteCustomerLogo(ctx context.Context, c *access.Caller, customerID string) (*Branding, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBrandingLogoDelete); err != nil {
		return nil, err
	}
	return s.setLogo(ctx, c, OpBrandingLogoDelete, customerID, nil)
}

// setLogo shows logo (nil: none) for the customer and removes the logos no
// customer shows any more, in one audited transaction.
func (s *brandings) setLogo(ctx context.Context, c *access.Caller, op Operation, customerID string, logo *branding.Logo) (*Branding, error) {
	var out *store.Branding
	err := s.audited(ctx, c, op, on(customerID, "customers", customerID, "branding", "logo"), func(tx *store.Store) error {
		b, err := tx.CustomerBranding(ctx, customerID)
		if err != nil {
			return err
		}
		now := s.stamp()
		b.LogoSHA256, b.UpdatedAt = "", now
		if logo != nil {
			if err := tx.PutLogo(ctx, &store.Logo{SHA256: logo.SHA256, PNG: logo.PNG, Width: logo.Width, Height: logo.Height}, now); err != nil {
				return err
			}
			b.LogoSHA256 = logo.SHA256
		}
		if err := tx.PutBranding(ctx, b); err != nil {
			return err
		}
		out = b
		_, err = tx.DeleteUnusedLogos(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.brandingView(out), nil
}

// brandingView maps a stored branding to its view.
func (s *brandings) brandingView(b *store.Branding) *Branding {
	v := &Branding{CustomerID: b.CustomerID, DisplayName: b.DisplayName, PrimaryColor: b.PrimaryColor,
		MailFromName: b.MailFromName, MailReplyTo: b.MailReplyTo}
	if b.PrimaryColor != "" {
		v.TextColor, v.Contrast = branding.TextColor(b.PrimaryColor)
		v.Contrast = float64(int(v.Contrast*100)) / 100
	}
	if b.LogoSHA256 != "" {
		v.LogoURL = strings.TrimSuffix(s.issuer, "/") + branding.LogoPath(b.LogoSHA256)
	}
	if !b.UpdatedAt.IsZero() {
		t := b.UpdatedAt.UTC()
		v.UpdatedAt = &t
	}
	return v
}
