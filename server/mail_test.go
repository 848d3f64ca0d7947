package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
)

// page is a browser without JavaScript: cookies, forms posted with their
// hidden fields.
type page struct {
	t    *testing.T
	c    *http.Client
	body string
}

func newPage(t *testing.T) *page {
	jar, _ := cookiejar.New(nil)
	return &page{t: t, c: &http.Client{Jar: jar}}
}

func (p *page) get(u string) int {
	p.t.Helper()
	resp, err := p.c.Get(u)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	p.body = string(b)
	return resp.StatusCode
}

var hidden = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)

func (p *page) submit(action string, fields ...string) int {
	p.t.Helper()
	form := url.Values{}
	for _, m := range hidden.FindAllStringSubmatch(p.body, -1) {
		form.Set(m[1], m[2])
	}
	for i := 0; i+1 < len(fields); i += 2 {
		form.Set(fields[i], fields[i+1])
	}
	resp, err := p.c.PostForm(action, form)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	p.body = string(b)
	return resp.StatusCode
}

// The whole invitation over a real SMTP server: the customer's owner
// invites through the console API, the worker delivers the message (text
// and HTML, organization named), its link opens the set-password page at
// the provider, the password is set and the user is signed in; the e-mail
// log says sent. A resent invitation replaces the link.
func TestInvitationOverSMTP(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.SMTPURL, m.Config.MailFrom = smtp.URL(), "Acme Platform <no-reply@platform.test>"
		m.MailSender = smtp.Sender()
	})
	ctx := context.Background()
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	code, user := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "nina@acme.example", "name": "Nina"})
	if code != http.StatusCreated {
		t.Fatalf("invite = %d %v", code, user)
	}
	if st, err := m.Mail.RunOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("delivery: %+v %v", st, err)
	}
	got := smtp.To("nina@acme.example")
	if len(got) != 1 || got[0].Subject != "You are invited to Acme Construction" || got[0].From != "no-reply@platform.test" {
		t.Fatalf("messages: %+v", smtp.Messages())
	}
	first := got[0].Link()
	if !strings.HasPrefix(first, m.Config.IssuerURL+idp.PathInvitation+"?token=") || !strings.Contains(got[0].HTML, first) {
		t.Fatalf("link %q in %q", first, got[0].Text)
	}
	// resend: a new message, the first link stops working
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/users/"+user["id"].(string)+"/resend-invitation", nil); code != 200 {
		t.Fatalf("resend = %d", code)
	}
	if _, err := m.Mail.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got = smtp.To("nina@acme.example")
	if len(got) != 2 {
		t.Fatalf("%d messages after resend", len(got))
	}
	b := newPage(t)
	if code := b.get(first); code != http.StatusNotFound {
		t.Fatalf("replaced link = %d", code)
	}
	if code := b.get(got[1].Link()); code != 200 || !strings.Contains(b.body, "Acme Construction") {
		t.Fatalf("set-password page = %d\n%s", code, b.body)
	}
	if code := b.submit(m.Config.IssuerURL+idp.PathInvitation, "password", "correct staple battery horse",
		"confirm", "correct staple battery horse"); code != 200 || !strings.Contains(b.body, "You are signed in") {
		t.Fatalf("set password = %d\n%s", code, b.body)
	}
	_, log := adminCall(t, m, owner.AccessToken, http.MethodGet, "/email-log", nil)
	items, _ := log["items"].([]any)
	for _, it := range items {
		e := it.(map[string]any)
		if e["recipient"] == "nina@acme.example" && e["status"] != "sent" {
			t.Fatalf("e-mail log entry: %v", e)
		}
	}
	if len(items) < 2 {
		t.Fatalf("e-mail log: %v", log)
	}
}

// ROLE=all without SMTP_URL keeps messages on the development mailbox,
// which the banner names; the e-mail log says not configured. Other roles
// have no mailbox.
func TestDevMailbox(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	var banner bytes.Buffer
	m.PrintBanner(&banner)
	if !strings.Contains(banner.String(), "Development mailbox "+m.Config.IssuerURL+mail.PathMailbox) {
		t.Fatalf("banner:\n%s", banner.String())
	}
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "omar@acme.example", "name": "Omar"}); code != http.StatusCreated {
		t.Fatalf("invite = %d", code)
	}
	if st, err := m.Mail.RunOnce(context.Background()); err != nil || st.NotConfigured != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	_, log := adminCall(t, m, owner.AccessToken, http.MethodGet, "/email-log", nil)
	if items, _ := log["items"].([]any); len(items) == 0 || items[0].(map[string]any)["status"] != "not configured" {
		t.Fatalf("e-mail log: %v", log)
	}
	b := newPage(t)
	if code := b.get(m.Config.IssuerURL + mail.PathMailbox); code != 200 || !strings.Contains(b.body, "omar@acme.example") {
		t.Fatalf("mailbox = %d\n%s", code, b.body)
	}
	id := regexp.MustCompile(`href="\?id=([0-9a-f]+)"`).FindStringSubmatch(b.body)
	if id == nil {
		t.Fatalf("no message link:\n%s", b.body)
	}
	if code := b.get(m.Config.IssuerURL + mail.PathMailbox + "?id=" + id[1]); code != 200 ||
		!strings.Contains(b.body, `<a href="`+m.Config.IssuerURL+idp.PathInvitation+"?token=") {
		t.Fatalf("message = %d\n%s", code, b.body)
	}
	if other := NewMain(Config{Role: RoleIDP}); other.devMailbox() {
		t.Fatal("a production role shows the mailbox")
	}
}

// The development mailbox shows live invitation and reset links; served on
// the provider's public listener it handed them to anyone who could reach
// the address. It answers only requests from this machine: another
// address, or a loopback peer that forwarded someone else's request (a
// proxy on this machine), gets 404 with a hint and none of the mailbox.
// attack: dev-mailbox-public
func TestAttackDevMailboxNotPublic(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "omar@acme.example", "name": "Omar"}); code != http.StatusCreated {
		t.Fatalf("invite = %d", code)
	}
	provider := m.servers[0].Handler // the identity provider's listener, with everything in front of its routes
	for _, tc := range []struct {
		name, peer string
		header     map[string]string
		want       int
	}{
		{"ErrPublicIPv4", "203.0.113.9:40000", nil, http.StatusNotFound},
		{"ErrPublicIPv6", "[2001:db8::9]:40000", nil, http.StatusNotFound},
		{"ErrPrivateNetwork", "10.1.2.3:40000", nil, http.StatusNotFound},
		{"ErrForwardedByLocalProxy", "127.0.0.1:40000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, http.StatusNotFound},
		{"ErrForwardedHeader", "[::1]:40000", map[string]string{"Forwarded": "for=203.0.113.9"}, http.StatusNotFound},
		{"LoopbackIPv4", "127.0.0.1:40000", nil, http.StatusOK},
		{"LoopbackIPv6", "[::1]:40000", nil, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{mail.PathMailbox, mail.PathMailbox + "?id=1"} {
				r := httptest.NewRequest(http.MethodGet, m.Config.IssuerURL+path, nil)
				r.RemoteAddr = tc.peer
				for k, v := range tc.header {
					r.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				provider.ServeHTTP(w, r)
				body := w.Body.String()
				if path == mail.PathMailbox && w.Code != tc.want {
					t.Fatalf("%s from %s = %d, want %d\n%.300s", path, tc.peer, w.Code, tc.want, body)
				}
				if tc.want == http.StatusNotFound && (w.Code != http.StatusNotFound || strings.Contains(body, "omar@acme.example") ||
					strings.Contains(body, "token=") || !strings.Contains(body, "only on the machine that runs the platform")) {
					t.Fatalf("%s from %s = %d:\n%.300s", path, tc.peer, w.Code, body)
				}
				if tc.want == http.StatusOK && path == mail.PathMailbox && !strings.Contains(body, "omar@acme.example") {
					t.Fatalf("the mailbox on this machine does not list the invitation:\n%.300s", body)
				}
			}
		})
	}
}
