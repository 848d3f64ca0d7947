package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// inputValue waits until the field labelled label shows value.
func inputValue(label, value string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const l = [...document.querySelectorAll("label")].find(l => l.offsetParent !== null && l.textContent.trim() === %q);
	  const el = l && document.getElementById(l.htmlFor);
	  return !!el && el.value === %q;
	})()`, label, value))
}

// The audit log in the console app (D-audit-trail): the staff reads who
// signed in and failed, by address and role, and narrows the log by the
// actor's address, the kind, the outcome and the time, each filter in the
// URL (a reload keeps them); a customer's owner reads its own users'
// events, and a search for an address without an account finds nothing.
//
// spec: D-audit-trail
func TestBrowserConsoleAppAuditLog(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	passwordAttempt(t, m, "bob@acme.example", "not-the-password", DemoAcmeOrgID)
	passwordAttempt(t, m, "ghost@acme.example", "not-the-password", DemoAcmeOrgID)
	demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/audit", "Audit log"),
		rowHas("audit-events-table", "sign_in (password)", "success", "bob@acme.example", "member", "127.0.0.1"),
		rowHas("audit-events-table", "sign_in (password)", "failure", "bob@acme.example", "invalid_credentials"),
		rowHas("audit-events-table", "ghost@acme.example", "unknown_user"))
	axeCheck(t, ctx, axe, "audit log")

	run(t, ctx, fill("Actor e-mail", "ghost"), rowHas("audit-events-table", "ghost@acme.example"),
		noRowHas("audit-events-table", "bob@acme.example"))
	run(t, ctx, fill("Actor e-mail", "bob@acme"), fill("Kind", "sign_in"), fill("Outcome", "failure"),
		rowHas("audit-events-table", "bob@acme.example", "invalid_credentials"), noRowHas("audit-events-table", "success"))
	run(t, ctx, fill("From", "2020-01-01"), rowHas("audit-events-table", "bob@acme.example"))
	var loc string
	run(t, ctx, chromedp.Location(&loc))
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("actor") != "bob@acme" || q.Get("kind") != "sign_in" || q.Get("outcome") != "failure" || q.Get("from") != "2020-01-01" {
		t.Fatalf("the filters are not in the URL: %s", loc)
	}
	// a reload keeps them
	run(t, ctx, chromedp.Reload(), inputValue("Actor e-mail", "bob@acme"), inputValue("Kind", "sign_in"),
		inputValue("Outcome", "failure"), rowHas("audit-events-table", "bob@acme.example", "invalid_credentials"),
		noRowHas("audit-events-table", "success"))
	run(t, ctx, fill("To", "2020-01-02"), waitShows("main", "No audit events for these filters."))
	axeCheck(t, ctx, axe, "audit log, nothing found")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-audit-staff"))

	owner := mustBrowser(t)
	appSignIn(t, owner, m, "alice@acme.example")
	run(t, owner, open(m, "/portal/audit", "Audit log"),
		rowHas("audit-events-table", "bob@acme.example", "invalid_credentials"), noRowHas("audit-events-table", "ghost"),
		noRowHas("audit-events-table", "unknown_user"))
	run(t, owner, fill("Actor e-mail", "ghost"), waitShows("main", "No audit events for these filters."))
	var page string
	run(t, owner, textOf("main", &page))
	if strings.Contains(page, "ghost@acme.example") {
		t.Fatal("the owner reads a failure for an address without an account")
	}
}
