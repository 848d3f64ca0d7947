package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/mail"
)

// openMail opens the newest message to an address on the development
// mailbox and follows its link, as a person would.
func openMail(m *Main, to string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(m.Config.IssuerURL + mail.PathMailbox),
		chromedp.WaitVisible(`//td[text()="`+to+`"]/following-sibling::td/a`, chromedp.BySearch),
		chromedp.Click(`//td[text()="`+to+`"]/following-sibling::td/a`, chromedp.BySearch),
		chromedp.WaitVisible(`pre.body a`, chromedp.ByQuery),
		chromedp.Click(`pre.body a`, chromedp.ByQuery),
	}
}

// The account life cycle in Chromium, without a mail server (the all-in-one's
// development mailbox): an invited user opens the link, sets a password on
// the page that names the organization and is signed in; on the account
// page changes the password; then forgets it, asks for a link, and sets a
// new one through it.
func TestBrowserAccountLifecycle(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	const who = "petra@acme.example"
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": who, "name": "Petra"}); code != http.StatusCreated {
		t.Fatalf("invite = %d %v", code, body)
	}
	if _, err := m.Mail.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	var org, done, email, notice string
	if err := chromedp.Run(ctx, openMail(m, who),
		chromedp.WaitVisible(`#password`, chromedp.ByID),
		textOf(`#org-name`, &org),
		chromedp.SendKeys(`#password`, "first chosen passphrase", chromedp.ByID),
		chromedp.SendKeys(`#confirm`, "first chosen passphrase", chromedp.ByID),
		shot(t, ctx, "set-password"),
		chromedp.Submit(`#confirm`, chromedp.ByID),
		chromedp.WaitVisible(`#done-message`, chromedp.ByID),
		chromedp.Poll(`document.getElementById("done-message").textContent.includes("signed in")`, nil),
		textOf(`#done-message`, &done),
	); err != nil {
		t.Fatal(err)
	}
	if org != "Acme Construction" || !strings.Contains(done, "signed in as "+who) {
		t.Fatalf("organization %q, done %q", org, done)
	}
	if err := chromedp.Run(ctx,
		chromedp.Click(`//a[text()="Your account"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#account-email`, chromedp.ByID),
		chromedp.Poll(`document.getElementById("account-email").textContent.includes("@")`, nil),
		textOf(`#account-email`, &email),
		chromedp.SendKeys(`#current`, "first chosen passphrase", chromedp.ByID),
		chromedp.SendKeys(`#h-password ~ form #password`, "second chosen passphrase", chromedp.ByQuery),
		chromedp.SendKeys(`#h-password ~ form #confirm`, "second chosen passphrase", chromedp.ByQuery),
		chromedp.Submit(`#current`, chromedp.ByID),
		chromedp.WaitVisible(`#account-notice`, chromedp.ByID),
		chromedp.Poll(`document.getElementById("account-notice").textContent.includes("password was changed")`, nil),
		textOf(`#account-notice`, &notice),
		shot(t, ctx, "account-page"),
	); err != nil {
		t.Fatal(err)
	}
	if email != who || !strings.Contains(notice, "Your password was changed") {
		t.Fatalf("account page: %q %q", email, notice)
	}
	// forgotten: ask for a link, then set a new password through it
	var sent string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(m.Config.IssuerURL+"/ui/password/forgot"),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, who, chromedp.ByID),
		chromedp.Submit(`#email`, chromedp.ByID),
		chromedp.WaitVisible(`#forgot-sent`, chromedp.ByID),
		chromedp.Poll(`document.getElementById("forgot-sent").textContent.includes("If an account")`, nil),
		textOf(`#forgot-sent`, &sent),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sent, "If an account exists for this address") {
		t.Fatalf("forgot answer %q", sent)
	}
	m.IDP.WaitBackground()
	if _, err := m.Mail.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, openMail(m, who),
		chromedp.WaitVisible(`#password`, chromedp.ByID),
		chromedp.SendKeys(`#password`, "third chosen passphrase", chromedp.ByID),
		chromedp.SendKeys(`#confirm`, "third chosen passphrase", chromedp.ByID),
		chromedp.Submit(`#confirm`, chromedp.ByID),
		chromedp.WaitVisible(`#done-message`, chromedp.ByID),
		chromedp.Poll(`document.getElementById("done-message").textContent.includes("signed out everywhere")`, nil),
		shot(t, ctx, "password-reset"),
	); err != nil {
		t.Fatal(err)
	}
}
