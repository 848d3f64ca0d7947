package mail

import (
	"context"
	"net/url"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// orgSender is the look and sender of a message to a customer's user
// (D-branding, D-org-mail): the customer's display name, logo and colour,
// its sender display name and Reply-To, each checked again as the admin
// API checks it (a value that fails is left out, never sent). The logo is
// loaded from the identity provider, the origin of the message's links; a
// message without a link shows the name. A message of no customer, or of a
// customer that is gone, has the platform's look and sender.
func orgSender(ctx context.Context, tx *store.Store, m Message) (Brand, string, string, error) {
	if m.CustomerID == "" {
		return Brand{}, "", "", nil
	}
	b, err := tx.CustomerBranding(ctx, m.CustomerID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return Brand{}, "", "", nil
	} else if err != nil {
		return Brand{}, "", "", err
	}
	brand := Brand{Name: b.DisplayName}
	if c, err := branding.ParseColor(b.PrimaryColor); err == nil {
		brand.Color = c
	}
	if b.LogoSHA256 != "" && branding.IsLogoHash(b.LogoSHA256) {
		if u, err := url.Parse(m.Link); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			brand.LogoURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: branding.LogoPath(b.LogoSHA256)}).String()
		}
	}
	fromName, err := branding.CleanName("mailFromName", b.MailFromName)
	if err != nil {
		fromName = ""
	}
	replyTo, err := branding.ParseReplyTo(b.MailReplyTo)
	if err != nil {
		replyTo = ""
	}
	return brand, fromName, replyTo, nil
}
