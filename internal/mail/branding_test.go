package mail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// brandedCustomer stores customer acme with b's branding.
func brandedCustomer(t *testing.T, f *fixture, b store.Branding) {
	t.Helper()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := f.st.CreateOrganization(ctx, &platform.Organization{ID: "org-acme", Name: "Acme Corp", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := f.st.CreateCustomer(ctx, &platform.Customer{ID: "acme", Name: "Acme Corp", OrgID: "org-acme", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	b.CustomerID, b.UpdatedAt = "acme", at
	if err := f.st.PutBranding(ctx, &b); err != nil {
		t.Fatal(err)
	}
}

// A message to a branded customer's user goes out from the platform's
// address with the customer's display name and Reply-To, and its HTML
// shows the customer's name, logo (from the links' origin) and colour.
func TestBrandedMailHeaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	logo := strings.Repeat("ab", 32)
	brandedCustomer(t, f, store.Branding{DisplayName: "Acme Construction", PrimaryColor: "#0b5d1e", LogoSHA256: logo,
		MailFromName: "Acme Support", MailReplyTo: "help@acme.example"})
	m := invitation
	m.CustomerID = "acme"
	f.queue(t, m)
	if st, err := f.worker.RunOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	got := f.smtp.To("ada@example.com")
	if len(got) != 1 {
		t.Fatalf("received %d messages", len(got))
	}
	msg := got[0]
	if msg.From != "no-reply@platform.test" {
		t.Errorf("envelope sender %q: the platform's address stays", msg.From)
	}
	if from := msg.Header.Get("From"); from != `"Acme Support" <no-reply@platform.test>` {
		t.Errorf("From: %q", from)
	}
	if rt := msg.Header.Get("Reply-To"); rt != "<help@acme.example>" && rt != "help@acme.example" {
		t.Errorf("Reply-To: %q", rt)
	}
	for _, want := range []string{`src="https://idp.example.com/ui/brand/logo/` + logo + `.png"`, `alt="Acme Construction"`,
		"background:#0b5d1e;color:#ffffff"} {
		if !strings.Contains(msg.HTML, want) {
			t.Errorf("html lacks %q: %s", want, msg.HTML)
		}
	}
}

// A message to a user of no customer, or of an unbranded customer, has the
// platform's sender and look.
func TestUnbrandedMailHeaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	brandedCustomer(t, f, store.Branding{})
	for _, customer := range []string{"", "acme"} {
		m := invitation
		m.CustomerID, m.To = customer, "u"+customer+"@example.com"
		f.queue(t, m)
	}
	if st, err := f.worker.RunOnce(ctx); err != nil || st.Sent != 2 {
		t.Fatalf("run: %+v %v", st, err)
	}
	for _, to := range []string{"u@example.com", "uacme@example.com"} {
		got := f.smtp.To(to)
		if len(got) != 1 {
			t.Fatalf("%s received %d messages", to, len(got))
		}
		if from := got[0].Header.Get("From"); from != `"Platform" <no-reply@platform.test>` {
			t.Errorf("%s From: %q", to, from)
		}
		if rt := got[0].Header.Get("Reply-To"); rt != "" {
			t.Errorf("%s Reply-To: %q", to, rt)
		}
		if !strings.Contains(got[0].HTML, "background:#1d4ed8;color:#fff") || strings.Contains(got[0].HTML, "/ui/brand/") {
			t.Errorf("%s html not the default look: %s", to, got[0].HTML)
		}
	}
}

// A sender name or Reply-To that reached the store with CR/LF (written
// around the admin API's checks) never becomes a header: the message goes
// out with the platform's sender, and no injected header arrives.
// attack: mail-header-injection-stored
func TestMailHeaderInjectionStored(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	brandedCustomer(t, f, store.Branding{MailFromName: "Acme\r\nBcc: victim@evil.example",
		MailReplyTo: "a@acme.example\r\nX-Injected: 1"})
	m := invitation
	m.CustomerID = "acme"
	f.queue(t, m)
	if st, err := f.worker.RunOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	got := f.smtp.Messages()
	if len(got) != 1 || len(got[0].To) != 1 {
		t.Fatalf("messages: %+v", got)
	}
	h := got[0].Header
	if h.Get("Bcc") != "" || h.Get("X-Injected") != "" || h.Get("Reply-To") != "" || strings.Contains(h.Get("From"), "Acme") {
		t.Errorf("headers: %v", h)
	}
}

// Compose alone: a colour that is not #rrggbb never reaches the style
// attribute.
// attack: mail-css-injection
func TestComposeBrandColorInjection(t *testing.T) {
	t.Parallel()
	b, err := mail.ComposeBranded(invitation, mail.Brand{Color: "red;background:url(https://evil.example/x)"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.HTML, "evil.example") || !strings.Contains(b.HTML, "background:#1d4ed8") {
		t.Errorf("html: %s", b.HTML)
	}
}
