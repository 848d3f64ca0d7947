package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/platform/platform/internal/mail/mailtest"
)

// A branded customer's invitation over a real SMTP server: from the
// platform's address with the customer's sender name and Reply-To, its
// HTML showing the customer's logo, which the identity provider serves.
func TestBrandedInvitationOverSMTP(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.SMTPURL, m.Config.MailFrom = smtp.URL(), "Platform <no-reply@platform.test>"
		m.MailSender = smtp.Sender()
	})
	brandAcme(t, m)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPut, "/customers/"+DemoAcmeCustomerID+"/branding",
		map[string]any{"mailFromName": "Acme Support", "mailReplyTo": "help@acme.example"}); code != http.StatusOK {
		t.Fatalf("branding = %d %v", code, body)
	}
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "nina@acme.example", "name": "Nina"}); code != http.StatusCreated {
		t.Fatalf("invite = %d %v", code, body)
	}
	if st, err := m.Mail.RunOnce(context.Background()); err != nil || st.Sent != 1 {
		t.Fatalf("delivery: %+v %v", st, err)
	}
	got := smtp.To("nina@acme.example")
	if len(got) != 1 {
		t.Fatalf("messages: %+v", smtp.Messages())
	}
	msg := got[0]
	if msg.From != "no-reply@platform.test" || msg.Header.Get("From") != `"Acme Support" <no-reply@platform.test>` ||
		msg.Header.Get("Reply-To") != "<help@acme.example>" {
		t.Errorf("sender %q, From %q, Reply-To %q", msg.From, msg.Header.Get("From"), msg.Header.Get("Reply-To"))
	}
	logo := regexp.MustCompile(`<img src="([^"]+)" alt="Acme Construction"`).FindStringSubmatch(msg.HTML)
	if logo == nil || !regexp.MustCompile(`^`+regexp.QuoteMeta(m.Config.IssuerURL)+`/ui/brand/logo/[0-9a-f]{64}\.png$`).MatchString(logo[1]) {
		t.Fatalf("no logo of the issuer in the HTML: %s", msg.HTML)
	}
	resp, err := http.Get(logo[1])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || string(b[:4]) != "\x89PNG" {
		t.Fatalf("logo: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !regexp.MustCompile(`background:#0b5d1e;color:#ffffff`).MatchString(msg.HTML) {
		t.Errorf("the button is not in the brand's colour: %s", msg.HTML)
	}
}
