package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"

	"github.com/platform/platform/internal/store"
)

// The console app (internal/web/console/app) in Chromium, per role: what
// each role is offered, the actions it takes through the GraphQL API, and
// axe-core on every page it visits.

// axePath is axe-core from the app's lock file (npm ci in the app's folder).
var axePath = filepath.Join("..", "internal", "web", "console", "app", "node_modules", "axe-core", "axe.min.js")

func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axePath)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is missing (%v); .ci/run runs npm ci in internal/web/console/app", err)
		}
		t.Skipf("axe-core is not installed: run npm ci in internal/web/console/app (%v)", err)
	}
	return string(b)
}

// appSignIn signs in through the gateway and the provider and waits for the
// app to show the caller's role.
func appSignIn(t *testing.T, ctx context.Context, m *Main, email string) {
	t.Helper()
	run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/", email), providerPassword(DemoPassword),
		waitShows(`[data-testid="role"]`, ""))
}

// waitShows waits until the element's text contains want (any text when want
// is empty).
func waitShows(sel, want string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.textContent.trim() !== "" && e.textContent.includes(%q); })()`, sel, want))
}

// textOf reads the rendered text of the first element matching the CSS
// selector sel once it exists, by evaluation in the current document: a
// read by DOM node id can fail when the page was just replaced, after a
// wait by evaluation has already seen the new page.
func textOf(sel string, out *string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? [true, e.innerText] : [false, ""]; })()`, sel)
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		for {
			var got []any
			if err := chromedp.Evaluate(js, &got).Do(ctx); err == nil && len(got) == 2 && got[0] == true {
				*out, _ = got[1].(string)
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("reading %s: %w", sel, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// waitTrue evaluates js until it is true, across navigations (an
// evaluation in a page being replaced fails and is tried again); the
// browser context's deadline ends it, or 30 seconds, leaving the test
// time to record the page it stopped on (a guard against hanging, not a
// measure of speed).
func waitTrue(js string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		for {
			var ok bool
			if err := chromedp.Evaluate(js, &ok).Do(ctx); err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s: %w", js, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// waitGone waits until no element matches sel.
func waitGone(sel string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`document.querySelector(%q) === null`, sel))
}

// open navigates inside the app and waits for the page's heading.
func open(m *Main, path, heading string) chromedp.Tasks {
	return chromedp.Tasks{chromedp.Navigate(m.Config.ConsoleURL + path), waitShows(`#page-title`, heading)}
}

// clickText clicks the first button or link whose text is exactly text.
func clickText(text string) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`//*[self::button or self::a][normalize-space(.)=%q]`, text), chromedp.BySearch)
}

// fill sets the value of the visible field labelled label (the last one,
// so a dialog's field wins) as typing does: through the native setter and
// an input (or change) event, which React listens to.
func fill(label, value string) chromedp.Action {
	js := fmt.Sprintf(`(() => {
	  const ls = [...document.querySelectorAll("label")].filter(l => l.offsetParent !== null && l.textContent.replace(/\s*\*$/, "").trim() === %q);
	  const el = ls.length && document.getElementById(ls[ls.length - 1].htmlFor);
	  if (!el) return false;
	  el.focus();
	  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set.call(el, %q);
	  el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", {bubbles: true}));
	  return el.value === %q; // a select's option may not be there yet
	})()`, label, value, value)
	return waitTrue(js)
}

// buttons lists the visible buttons' texts.
func buttons(ctx context.Context) ([]string, error) {
	var out []string
	err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll("button, a[role=button]")].filter(b => b.offsetParent !== null).map(b => (b.getAttribute("aria-label") || b.textContent).trim())`, &out))
	return out, err
}

// buttonsLike lists the visible buttons whose text (or label) begins with
// one of prefixes.
func buttonsLike(ctx context.Context, prefixes ...string) []string {
	bs, _ := buttons(ctx)
	var out []string
	for _, b := range bs {
		for _, p := range prefixes {
			if strings.HasPrefix(b, p) {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// axeCheck runs axe-core on the page and fails the test on any violation.
func axeCheck(t *testing.T, ctx context.Context, src, page string) {
	t.Helper()
	var out string
	var loaded bool
	err := chromedp.Run(ctx,
		// a dialog fading in is measured at its final colours, not at
		// part of its opacity: wait for transitions and finite animations
		// to end (a spinner's endless one never does)
		chromedp.Poll(`document.getAnimations().every(a => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)`, nil,
			chromedp.WithPollingInterval(50*time.Millisecond)),
		// axe-core once per document: the app moves between its pages
		// without loading another, and compiling axe costs more than a run
		chromedp.Evaluate(`typeof axe !== "undefined"`, &loaded),
		chromedp.ActionFunc(func(ctx context.Context) error {
			if loaded {
				return nil
			}
			return chromedp.Evaluate(src+"\n;true", nil).Do(ctx)
		}),
		chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}))))`, &out,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	if err != nil {
		t.Fatalf("axe on %s: %v", page, err)
	}
	var v []map[string]any
	_ = json.Unmarshal([]byte(out), &v)
	if len(v) > 0 {
		t.Errorf("axe-core violations on %s: %s", page, out)
	}
}

// run runs actions and, when they fail, saves a screenshot and the page's
// text before failing the test.
func run(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var text, loc string
		// past the test's own bound too: what the page shows is the clue
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = chromedp.Run(fctx, chromedp.Location(&loc), chromedp.Evaluate(`document.body.innerText`, &text), shot(t, fctx, "failure-"+strings.ReplaceAll(t.Name(), "/", "-")))
		t.Fatalf("%v\nat %s:\n%.2000s", err, loc, text)
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s || strings.HasPrefix(x, s) {
			return true
		}
	}
	return false
}

// platform_admin creates a customer, a tenant and an instance, invites a
// user, sees field errors from the server, and the URL keeps the page.
func TestBrowserConsoleAppPlatformAdmin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, waitShows(`#page-title`, "Welcome"))
	axeCheck(t, ctx, axe, "dashboard home")

	run(t, ctx, open(m, "/dashboard/customers", "Customers"), waitShows(`[data-testid="customers-table"]`, "Acme Construction"))
	axeCheck(t, ctx, axe, "customers")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-customers"))

	// search is in the URL: a reload keeps it
	var loc string
	run(t, ctx, fill("Search customers", "glob"),
		waitTrue(`!document.querySelector('[data-testid="customers-table"]').textContent.includes("Acme")`),
		chromedp.Reload(), waitShows(`[data-testid="customers-table"]`, "Globex"), chromedp.Location(&loc))
	if !strings.HasSuffix(loc, "/dashboard/customers?q=glob") {
		t.Errorf("search not in the URL: %s", loc)
	}

	// the server's refusal at the field: another customer's name
	run(t, ctx, clickText("New customer"), fill("Name", "ACME construction"),
		clickText("Create customer"), waitShows(`[role="dialog"]`, "is another customer's"))
	var invalid string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="dialog"] [aria-invalid="true"]')].map(e => e.tagName + ":" + document.querySelector('label[for="' + e.id + '"]').textContent.replace(/\s*\*$/, "")).join()`, &invalid))
	if invalid != "INPUT:Name" {
		t.Errorf("the name's error is not at its field: %q", invalid)
	}
	axeCheck(t, ctx, axe, "new customer with an error")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-customer-invalid"))
	// a new customer opens on its Domains tab, where its domains are claimed
	run(t, ctx, fill("Name", "Umbrella"), clickText("Create customer"),
		waitShows(`#page-title`, "Umbrella"), waitShows(`main`, "Add domain"), chromedp.Location(&loc))
	if !strings.Contains(loc, "/dashboard/customers/") {
		t.Fatalf("after create: %s", loc)
	}
	custID := strings.SplitN(strings.SplitN(loc, "/dashboard/customers/", 2)[1], "?", 2)[0]
	axeCheck(t, ctx, axe, "customer detail")
	run(t, ctx, open(m, "/dashboard/customers/"+custID+"?tab=tenants", "Umbrella"))

	// a tenant of the new customer
	// the dialog offers the customer's instances once they load, which
	// moves its buttons: click once they are there
	run(t, ctx, clickText("New tenant"), fill("Name", "Umbrella main"), waitShows(`[role="dialog"]`, "Instance"), clickText("Create tenant"),
		waitShows(`[data-testid="tenants-table"]`, "Umbrella main"))
	// an invitation
	run(t, ctx, clickText("Users"), clickText("Invite user"), fill("E-mail", "wesker@umbrella.example"),
		fill("Name", "Albert Wesker"), clickText("Send invitation"), waitShows(`[data-testid="users-table"]`, "wesker@umbrella.example"))
	axeCheck(t, ctx, axe, "customer users")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-customer-users"))
	// the tab is in the URL
	run(t, ctx, chromedp.Reload(), waitShows(`[data-testid="users-table"]`, "Albert Wesker"))

	// an instance
	run(t, ctx, open(m, "/dashboard/instances", "Instances"), waitShows(`[data-testid="instances-table"]`, "Acme production"),
		clickText("New instance"))
	run(t, ctx, pick("Customer", "Umbrella", "Umbrella"),
		fill("Name", "Umbrella staging"), fill("URL", "https://staging.umbrella.example"), clickText("Create instance"),
		waitShows(`[data-testid="instances-table"]`, "Umbrella staging"))
	axeCheck(t, ctx, axe, "instances")

	for _, p := range []struct{ path, heading string }{
		{"/dashboard/tenants", "Tenants"}, {"/dashboard/grants", "Grants"}, {"/dashboard/usage", "Usage"}, {"/dashboard/audit", "Audit log"},
		{"/dashboard/invoices", "Invoices"}, {"/dashboard/emails", "E-mail log"}, {"/dashboard/internal-users", "Internal users"},
		{"/dashboard/catalog", "Plans and meters"}, {"/dashboard/releases", "Releases and environment"}, {"/dashboard/workers", "System workers"},
		{"/dashboard/attributes", "User attributes"}, {"/dashboard/discrepancies", "Discrepancies"},
	} {
		run(t, ctx, open(m, p.path, p.heading), waitTrue(`!document.body.textContent.includes("Loading…")`))
		axeCheck(t, ctx, axe, p.path)
	}
	_ = chromedp.Run(ctx, shot(t, ctx, "app-audit"))

	// focus mode is shown in the header and can be left
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID, "Acme Construction"), clickText("Focus on this customer"),
		waitShows(`[data-testid="focus"]`, "Focused on Acme Construction"))
	axeCheck(t, ctx, axe, "focus")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-focus"))
	run(t, ctx, clickText("Leave focus"), waitGone(`[data-testid="focus"]`))
}

// An account manager sees only its customers and is not offered the
// internal-infrastructure pages; out of scope is a plain sentence (403).
// spec: R5.7-strict
func TestBrowserConsoleAppAccountManager(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx0 := context.Background()
	am := mustConsoleUser(t, m, "2b7e4d10-0000-4000-8000-0000000000a1", DemoAdminOrgID, "manager@platform.example", "Manny Manager",
		"account_manager", "")
	if err := m.Store.PutGrant(ctx0, false, &store.Grant{GranteeID: am.ID, TargetID: DemoGlobexCustomerID,
		GrantedBy: "2b7e4d10-0000-4000-8000-000000000001", GrantedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "manager@platform.example")
	var nav []string
	run(t, ctx, open(m, "/dashboard/customers", "Customers"), waitShows(`[data-testid="customers-table"]`, "Globex Engineering"),
		chromedp.Evaluate(`[...document.querySelectorAll("nav a")].map(a => a.textContent.trim())`, &nav))
	var table string
	_ = chromedp.Run(ctx, textOf(`[data-testid="customers-table"]`, &table))
	if strings.Contains(table, "Acme") || strings.Contains(table, "Initech") {
		t.Errorf("account manager sees customers outside its grants: %q", table)
	}
	if has(nav, "Instances") || has(nav, "Grants") {
		t.Errorf("account manager offered infrastructure pages: %v", nav)
	}
	bs, _ := buttons(ctx)
	if has(bs, "New customer") {
		t.Errorf("account manager offered customer creation: %v", bs)
	}
	axeCheck(t, ctx, axe, "account manager customers")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-account-manager"))

	var msg string
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID, "Customer"),
		waitShows(`[data-testid="page-error"]`, "do not have access"), textOf(`[data-testid="page-error"]`, &msg))
	axeCheck(t, ctx, axe, "forbidden customer")
	// within its customer it acts: a tenant
	run(t, ctx, open(m, "/dashboard/customers/"+DemoGlobexCustomerID, "Globex Engineering"),
		clickText("New tenant"), fill("Name", "Globex lab"), clickText("Create tenant"),
		waitShows(`[data-testid="tenants-table"]`, "Globex lab"))
	// the instances page is not offered, even by URL
	run(t, ctx, open(m, "/dashboard/instances", "Not available"))
}

// A viewer is offered no write control; billed amounts are hidden with an
// explanation. The viewer is in two organizations and switches in the
// header.
// spec: R5.7-redact
func TestBrowserConsoleAppViewer(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/", "dana@partner.example"),
		chromedp.WaitVisible(`#org-step`, chromedp.ByID),
		chromedp.Click(`//button[text()="Acme Construction"]`, chromedp.BySearch),
		providerPassword(DemoPassword), waitShows(`[data-testid="role"]`, "viewer"), waitShows(`#page-title`, "Acme Construction"))
	// the header leads to the user's own account page at the provider
	// (D-account-frame: with the app's page to lead back to)
	run(t, ctx, waitTrue(fmt.Sprintf(`document.querySelector('[data-testid="account-link"]')?.href === %q`, m.Config.IssuerURL+"/ui/account?back=%2Fportal")))
	axeCheck(t, ctx, axe, "portal home")
	run(t, ctx, open(m, "/portal/usage", "Usage"), waitShows(`[data-testid="usage-table"]`, "Hidden for your role"),
		waitShows(`[data-testid="redaction-note"]`, "hidden"))
	axeCheck(t, ctx, axe, "portal usage")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-viewer-usage"))
	for _, p := range []struct{ path, heading string }{{"/portal", "Acme"}, {"/portal/tenants", "Tenants"}, {"/portal/users", "Not available"}} {
		run(t, ctx, open(m, p.path, p.heading), waitTrue(`!document.body.textContent.includes("Loading…")`))
		bs, _ := buttons(ctx)
		for _, b := range bs {
			for _, w := range []string{"New", "Invite", "Suspend", "Delete", "Reactivate", "Focus"} {
				if strings.HasPrefix(b, w) {
					t.Errorf("viewer offered %q on %s", b, p.path)
				}
			}
		}
		axeCheck(t, ctx, axe, p.path)
	}

	// 390 px wide: nothing overflows the page sideways (tables scroll in
	// their own region) and the sections are behind the menu button
	var overflow bool
	run(t, ctx, chromedp.EmulateViewport(390, 844), open(m, "/portal/usage", "Usage"), waitShows(`[data-testid="usage-table"]`, "Hidden"),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow), shot(t, ctx, "app-390-usage"),
		// the menu is open once its link is on the screen: the closed
		// menu's links are laid out too, moved out of the viewport, and a
		// click aimed there before the menu opened was lost
		chromedp.Click(`button[aria-label="Menu"]`, chromedp.ByQuery), waitTrue(`[...document.querySelectorAll("nav a")].some(a => a.textContent === "Tenants" && a.getBoundingClientRect().left >= 0 && a.getBoundingClientRect().width > 0)`),
		shot(t, ctx, "app-390-menu"), clickText("Tenants"), waitShows(`#page-title`, "Tenants"))
	if overflow {
		t.Errorf("the page is wider than 390 px")
	}
	axeCheck(t, ctx, axe, "390 px")
	run(t, ctx, chromedp.EmulateViewport(1280, 800))

	// switch organization in the header: Globex, where dana is billing
	run(t, ctx, waitShows(`[data-testid="org-switch"]`, "Globex"), waitTrue(fmt.Sprintf(`(() => {
	  const el = document.querySelector('[data-testid="org-switch"]');
	  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(el, %q);
	  el.dispatchEvent(new Event("change", {bubbles: true}));
	  return true;
	})()`, DemoGlobexOrgID)))
	run(t, ctx, waitTrue(`!!document.getElementById("password") || (document.querySelector('[data-testid="role"]')?.textContent === "billing")`))
	var needPassword bool
	_ = chromedp.Run(ctx, chromedp.Evaluate(`!!document.getElementById("password")`, &needPassword))
	if needPassword {
		run(t, ctx, providerPassword(DemoPassword))
	}
	// Globex makes two-step verification compulsory: enrol at this sign-in
	var secret string
	run(t, ctx, waitTrue(`!!document.getElementById("totp-secret") || !!document.querySelector('[data-testid="role"]')`),
		chromedp.Evaluate(`document.getElementById("totp-secret")?.textContent ?? ""`, &secret))
	if secret != "" {
		code, err := totp.GenerateCode(secret, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		run(t, ctx, chromedp.SendKeys(`#code`, code, chromedp.ByID), chromedp.Submit(`#code`, chromedp.ByID),
			chromedp.WaitVisible(`//a[text()="Continue"]`, chromedp.BySearch), chromedp.Click(`//a[text()="Continue"]`, chromedp.BySearch))
	}
	run(t, ctx, waitShows(`[data-testid="role"]`, "billing"), open(m, "/portal", "Globex Engineering"))
	axeCheck(t, ctx, axe, "portal after the switch")
}

// The owner configures a webhook and a service account (each secret shown
// once), and hands ownership to another user of the customer.
func TestBrowserConsoleAppOwner(t *testing.T) {
	t.Parallel()
	// the password sign-in here has no second factor: step-up (D-step-up,
	// TestBrowserConsoleAppStepUp) is off for the dangerous action this page test reaches
	m := mustRunMainWith(t, func(m *Main) { m.Config.StepUpMaxAge = 0 })
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=settings", "Acme Construction"), waitShows(`main`, "Service accounts"))
	axeCheck(t, ctx, axe, "customer settings")

	var secret string
	run(t, ctx, clickText("New webhook"), fill("URL", "https://hooks.acme.example/platform"), clickText("Create webhook"),
		waitShows(`[data-testid="secret"]`, ""), textOf(`[data-testid="secret"]`, &secret))
	if len(secret) < 16 {
		t.Errorf("webhook secret shown: %q", secret)
	}
	axeCheck(t, ctx, axe, "webhook secret")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-webhook-secret"))
	run(t, ctx, clickText("Done"), waitShows(`[data-testid="webhooks-table"]`, "hooks.acme.example"))

	run(t, ctx, clickText("New service account"), fill("Name", "ci-exporter"), clickText("Create service account"),
		waitShows(`[data-testid="secret"]`, ""), clickText("Done"), waitShows(`[data-testid="service-accounts-table"]`, "ci-exporter"))
	// the secret is not shown again
	var again bool
	run(t, ctx, chromedp.Reload(), waitShows(`[data-testid="service-accounts-table"]`, "ci-exporter"),
		chromedp.Evaluate(`document.querySelector('[data-testid="secret"]') !== null`, &again))
	if again {
		t.Error("a secret is shown after the dialog closed")
	}

	// ownership to Bob, confirmed by naming him
	run(t, ctx, open(m, "/portal/users", "Users"), waitShows(`[data-testid="users-table"]`, "bob@acme.example"),
		rowAction("bob@acme.example", "Make owner"), fill("Type the owner name, bob@acme.example, to confirm", "bob@acme.example"),
		clickText("Transfer ownership to owner"), waitGone(`[role="dialog"]`))
	axeCheck(t, ctx, axe, "customer users (owner)")
	run(t, ctx, chromedp.Reload(), waitTrue(`[...document.querySelectorAll('[data-testid="users-table"] tr')].some(r => r.textContent.includes("bob@acme.example") && r.textContent.includes("owner"))`))
}
