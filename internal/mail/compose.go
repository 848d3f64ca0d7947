// Package mail sends the platform's e-mail (D-mail): messages are composed
// from embedded templates, sealed and written to the outbox (the e-mail
// log) in the transaction of the change that causes them, and delivered by
// a Worker over SMTP with leases, retries and backoff.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"

	"golang.org/x/text/language"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/web"
)

// Kinds of message; each has a subject, a text and an HTML template.
const (
	KindInvitation = "invitation"
	KindReset      = "reset"
	KindUnlock     = "unlock"
	KindVerify     = "verify"
	KindOwnership  = "ownership"
	KindPasskey    = "passkey"
	// KindSSOOnly answers a reset asked for by an account whose
	// organization signs in only through its identity provider: there is
	// no password to reset, and no link to set one.
	KindSSOOnly = "sso-only"
	// KindSignIn tells the holder that how the account signs in changed
	// (Change says what): a password, recovery codes, the second factor,
	// a passkey removed, an address change asked for.
	KindSignIn = "sign-in-changed"
	// KindSecondFactorReset tells the holder that an administrator removed
	// the account's second factors (D-support-tools): the next sign-in
	// sets up a new one where the organization asks for one.
	KindSecondFactorReset = "second-factor-reset"
)

// The templates of every language (D-languages): each set's t, strong
// and lang functions are bound to its language.
var (
	textTemplates = map[language.Tag]*texttemplate.Template{}
	htmlTemplates = map[language.Tag]*htmltemplate.Template{}
)

func init() {
	for _, tag := range i18n.Supported {
		pr := i18n.For(tag)
		textTemplates[tag] = texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap(i18n.Funcs(pr))).ParseFS(web.FS, "mail/text.tmpl"))
		htmlTemplates[tag] = htmltemplate.Must(htmltemplate.New("").Funcs(i18n.Funcs(pr)).ParseFS(web.FS, "mail/html.tmpl"))
	}
}

var buttonLabels = map[string]string{KindInvitation: "Choose your password", KindReset: "Choose a new password",
	KindUnlock: "Unlock my account", KindVerify: "Confirm my address", KindPasskey: "Review my passkeys",
	KindSSOOnly: "Sign in", KindSignIn: "Review my account", KindSecondFactorReset: "Review my account"}

// Message is one e-mail to compose: its kind, recipient, and what the
// templates show (the organization's name, the recipient's name, the link).
type Message struct {
	Kind       string
	To         string
	CustomerID string // "" for internal users and accounts of no customer
	UserID     string
	Org        string
	Name       string
	Link       string
	Address    string // the address a verification confirms
	Passkey    string // the name of a passkey just added
	Change     string // what changed, a sentence (KindSignIn): an English catalog key
	ChangeArgs []string
	// Lang is the language to write in ("de", …; D-languages): the
	// recipient's saved one, else the causing request's; English when "".
	Lang string
}

// Body is a composed message. FromName and ReplyTo are the sender display
// name and Reply-To of the recipient's organization (D-org-mail), "" for
// the platform's; the From address is always MAIL_FROM.
type Body struct {
	Subject  string `json:"-"`
	Text     string `json:"text"`
	HTML     string `json:"html"`
	FromName string `json:"fromName,omitempty"`
	ReplyTo  string `json:"replyTo,omitempty"`
}

// Brand is how a message of a branded organization looks (D-branding):
// its display name, its logo's absolute URL and its primary colour; the
// zero value is the platform's look.
type Brand struct {
	Name    string
	LogoURL string
	Color   string // #rrggbb or ""
}

type view struct {
	Message
	Lang    string
	Subject string
	Label   string
	Content htmltemplate.HTML
	Brand   brandView
}

// brandView is Brand as the HTML layout uses it; the colours are checked
// #rrggbb values (branding.IsHexColor), safe in a style attribute.
type brandView struct {
	Name                    string
	LogoURL                 string
	Color                   htmltemplate.CSS
	ButtonColor, ButtonText htmltemplate.CSS
}

func brandViewOf(b Brand) brandView {
	v := brandView{Name: b.Name, LogoURL: b.LogoURL, ButtonColor: "#1d4ed8", ButtonText: "#fff"}
	if branding.IsHexColor(b.Color) {
		text, _ := branding.TextColor(strings.ToLower(b.Color))
		v.Color = htmltemplate.CSS(strings.ToLower(b.Color)) // six hex digits, checked just above
		v.ButtonColor, v.ButtonText = v.Color, htmltemplate.CSS(text)
	}
	return v
}

// Compose renders a message's subject, text and HTML in its language and
// the platform's look.
func Compose(m Message) (Body, error) { return ComposeBranded(m, Brand{}) }

// ComposeBranded renders a message's subject, text and HTML in its language
// and brand's look.
func ComposeBranded(m Message, brand Brand) (Body, error) {
	pr := i18n.For(i18n.Match(i18n.Saved(m.Lang)))
	tag := pr.Tag()
	v := view{Message: m, Label: pr.Text(buttonLabels[m.Kind]), Lang: pr.Lang(), Brand: brandViewOf(brand)}
	if v.Name == "" {
		v.Name = m.To
	}
	if m.Change != "" {
		args := make([]any, len(m.ChangeArgs))
		for i, a := range m.ChangeArgs {
			args[i] = a
		}
		v.Change = pr.T(m.Change, args...)
	}
	var subj, text, content, page bytes.Buffer
	if err := textTemplates[tag].ExecuteTemplate(&subj, m.Kind+".subject", v); err != nil {
		return Body{}, err
	}
	v.Subject = strings.TrimSpace(subj.String())
	if err := textTemplates[tag].ExecuteTemplate(&text, m.Kind+".text", v); err != nil {
		return Body{}, err
	}
	if err := htmlTemplates[tag].ExecuteTemplate(&content, m.Kind+".html", v); err != nil {
		return Body{}, err
	}
	v.Content = htmltemplate.HTML(content.String()) // rendered by html/template just above
	if err := htmlTemplates[tag].ExecuteTemplate(&page, "layout", v); err != nil {
		return Body{}, err
	}
	return Body{Subject: v.Subject, Text: strings.TrimSpace(text.String()) + "\n", HTML: page.String()}, nil
}

// Outbox writes composed messages to the e-mail log, their body sealed.
type Outbox struct {
	Sealer *secrets.Sealer
	Now    func() time.Time
}

// Queue composes m and writes it to the outbox through tx: pass the
// transaction of the change that causes the message, so both are kept or
// neither is. A message to a customer's user (CustomerID) carries that
// customer's branding and sender (orgSender).
func (o *Outbox) Queue(ctx context.Context, tx *store.Store, m Message) error {
	brand, fromName, replyTo, err := orgSender(ctx, tx, m)
	if err != nil {
		return err
	}
	body, err := ComposeBranded(m, brand)
	if err != nil {
		return err
	}
	body.FromName, body.ReplyTo = fromName, replyTo
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	id := newID()
	sealed := o.Sealer.Seal(raw, secrets.LabelMail(id))
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	at := now().UTC().Truncate(time.Microsecond)
	return tx.QueueEmail(ctx, &store.Email{ID: id, At: at, CustomerID: m.CustomerID, Recipient: m.To, Kind: m.Kind,
		Subject: body.Subject, UserID: m.UserID, BodySealed: sealed, NextAttemptAt: at})
}

// Open returns the body of an outbox message (its text and HTML).
func Open(sl *secrets.Sealer, e *store.Email) (Body, error) {
	raw, err := sl.Open(e.BodySealed, secrets.LabelMail(e.ID))
	if err != nil {
		return Body{}, err
	}
	var b Body
	err = json.Unmarshal(raw, &b)
	b.Subject = e.Subject
	return b, err
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
