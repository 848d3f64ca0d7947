package idp

import (
	"context"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// customerOf is the customer of an organization ("" for none), so the
// customer's e-mail log lists the message.
func (p *core) customerOf(ctx context.Context, orgID string) string {
	c, err := p.store.CustomerByOrg(ctx, orgID)
	if err != nil {
		return ""
	}
	return c.ID
}

// signInNotice is the message telling u's holder what changed in how the
// account signs in; queue it through the transaction of the change
// (queueNotice), so the change and its message exist together. change is
// an English catalog key, formatted with arg when it is not "" (the
// message is written in the holder's language, D-languages).
func (p *core) signInNotice(ctx context.Context, u *platform.User, change string, arg ...string) mail.Message {
	org := ""
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		org = o.Name
	}
	return mail.Message{Kind: mail.KindSignIn, To: u.Email, UserID: u.ID, CustomerID: p.customerOf(ctx, u.OrgID), Org: org,
		Name: u.Name, Change: change, ChangeArgs: arg, Link: p.cfg.Issuer + PathAccount, Lang: mailLanguage(ctx, u)}
}

// queueNotice writes m to the outbox through tx.
func (p *core) queueNotice(ctx context.Context, tx *store.Store, m mail.Message) error {
	return (&mail.Outbox{Sealer: p.sealer, Now: p.now}).Queue(ctx, tx, m)
}
