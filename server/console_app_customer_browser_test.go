package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The console app's customer-side actions in Chromium: a customer's
// sign-in configuration, webhooks and service accounts, its billing, and a
// tenant's members, settings, migrations and transfer; axe-core on every
// page and dialog visited.

// press clicks the last visible button whose text is exactly text (a
// dialog's, as dialogs come last in the page) once it is enabled, through
// the DOM, so a dialog still moving into place is not missed.
func press(text string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const bs = [...document.querySelectorAll("button")].filter(b => b.offsetParent !== null && b.textContent.trim() === %q);
	  const b = bs[bs.length - 1];
	  if (!b || b.disabled || b.dataset.loading === "true") return false;
	  b.click();
	  return true;
	})()`, text))
}

// tick clicks the checkbox labelled label when it is not in the state want.
func tick(label string, want bool) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const l = [...document.querySelectorAll("label")].find(l => l.offsetParent !== null && l.textContent.trim() === %q);
	  const el = l && document.getElementById(l.htmlFor);
	  if (!el) return false;
	  if (el.checked !== %t) el.click();
	  return el.checked === %t;
	})()`, label, want, want))
}

// fieldError waits until the field labelled label is marked invalid with a
// message containing want, and answers that message.
func fieldError(label, want string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const ls = [...document.querySelectorAll("label")].filter(l => l.offsetParent !== null && l.textContent.replace(/\s*\*$/, "").trim() === %q);
	  const el = ls.length && document.getElementById(ls[ls.length - 1].htmlFor);
	  if (!el || el.getAttribute("aria-invalid") !== "true") return false;
	  const msg = (el.getAttribute("aria-describedby") || "").split(" ").map(id => document.getElementById(id)?.textContent ?? "").join(" ");
	  return msg.includes(%q);
	})()`, label, want))
}

// The owner configures sign-in with an identity provider, edits a webhook
// and reads its deliveries, rotates both secrets (each shown once, the old
// one refused afterwards) and edits the customer's settings document.
func TestBrowserConsoleAppOwnerConfiguration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	ctx0 := context.Background()
	appSignIn(t, ctx, m, "alice@acme.example")

	// sign-in: an identity provider, first refused at its issuer field
	run(t, ctx, open(m, "/portal?tab=sso", "Acme Construction"), waitShows(`main`, "How users sign in"),
		waitShows(`[data-testid="empty"]`, "No identity providers"))
	axeCheck(t, ctx, axe, "sign-in settings")
	run(t, ctx, clickText("New identity provider"), fill("Name", "Acme Okta"), fill("Issuer", "http://okta.acme.example"),
		fill("Client id", "platform-console"), fill("Client secret", "okta-secret-value"), press("Create identity provider"),
		fieldError("Issuer", "must use https"))
	axeCheck(t, ctx, axe, "identity provider with an error")
	run(t, ctx, fill("Issuer", "https://acme.okta.example"), fill("Scopes", "openid email"), press("Create identity provider"),
		waitGone(`[role="dialog"]`), rowHas("identity-providers-table", "Acme Okta", "https://acme.okta.example", "openid email", "enabled"))
	// the owner cannot make the provider trusted for linking accounts
	run(t, ctx, clickLabel("Edit Acme Okta"), waitShows(`[role="dialog"]`, "Client secret"))
	var trustOffered bool
	run(t, ctx, chromedp.Evaluate(`document.querySelector('[role="dialog"]').textContent.includes("link existing accounts")`, &trustOffered))
	if trustOffered {
		t.Error("owner offered linking trust (platform_admin's)")
	}
	run(t, ctx, fill("Name", "Acme Okta EU"), tick("Enabled", false), press("Save identity provider"), waitGone(`[role="dialog"]`),
		rowHas("identity-providers-table", "Acme Okta EU", "disabled"))
	// passkeys only, without passkeys: the server's reason in the form
	run(t, ctx, tick("Passkeys", false), tick("Passkeys only", true), press("Save sign-in methods"),
		waitShows(`[data-testid="form-error"]`, "passkeyRequired needs passkeyAllowed"))
	axeCheck(t, ctx, axe, "sign-in methods with an error")
	run(t, ctx, tick("Passkeys", true), tick("Passkeys only", false), tick("Single sign-on", true), press("Save sign-in methods"),
		waitShows(`[data-testid="saved"]`, "Saved"))
	pol, err := m.Store.LoginPolicy(ctx0, DemoAcmeOrgID)
	if err != nil || !pol.SSOAllowed || !pol.PasswordAllowed || !pol.PasskeyAllowed || pol.PasskeyRequired {
		t.Fatalf("sign-in policy after save: %+v %v", pol, err)
	}
	_ = chromedp.Run(ctx, shot(t, ctx, "app-sso"))
	var overflow bool
	run(t, ctx, chromedp.EmulateViewport(390, 844), chromedp.Reload(), rowHas("identity-providers-table", "Acme Okta EU"),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow), chromedp.EmulateViewport(1280, 800))
	if overflow {
		t.Error("the sign-in tab is wider than 390 px")
	}
	// a reload shows what the server keeps
	run(t, ctx, chromedp.Reload(), waitTrue(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.trim() === "Single sign-on"); return !!l && document.getElementById(l.htmlFor).checked; })()`))

	// a webhook: made, then edited (an unknown event refused at its field)
	run(t, ctx, open(m, "/portal?tab=settings", "Acme Construction"), waitShows(`main`, "Service accounts"),
		clickText("New webhook"), fill("URL", "https://hooks.acme.example/platform"), press("Create webhook"),
		waitShows(`[data-testid="secret"]`, ""))
	var first string
	run(t, ctx, textOf(`[data-testid="secret"]`, &first), press("Done"),
		rowHas("webhooks-table", "hooks.acme.example", "*"))
	hooks, err := m.Store.Webhooks(ctx0, DemoAcmeCustomerID)
	if err != nil || len(hooks) != 1 {
		t.Fatalf("webhooks: %v %v", hooks, err)
	}
	hook := hooks[0]
	run(t, ctx, rowAction(hook.URL, "Edit"), fill("Events", "manage_tenant nope"), press("Save webhook"),
		fieldError("Events", `"nope" is not an event type`))
	axeCheck(t, ctx, axe, "webhook edit with an error")
	run(t, ctx, fill("Events", "manage_tenant, suspend_user"), fill("Description", "Build pipeline"), tick("Active", false),
		press("Save webhook"), waitGone(`[role="dialog"]`), rowHas("webhooks-table", "manage_tenant, suspend_user", "no"))
	if w, err := m.Store.Webhook(ctx0, hook.ID); err != nil || w.Active || w.Description != "Build pipeline" || len(w.Events) != 2 {
		t.Fatalf("webhook after edit: %+v %v", w, err)
	}

	// its deliveries, the webhook named in the URL
	now := time.Now().UTC().Truncate(time.Second)
	for i, d := range []store.WebhookDelivery{
		{EventType: "manage_tenant", Status: store.DeliveryDelivered, Attempts: 1, LastStatusCode: 204, DeliveredAt: &now},
		{EventType: "suspend_user", Status: store.DeliveryFailed, Attempts: 5, LastStatusCode: 503, LastError: "upstream unavailable"},
	} {
		d.ID, d.WebhookID, d.EventID, d.Payload = fmt.Sprintf("de11e000-0000-4000-8000-00000000000%d", i+1), hook.ID,
			fmt.Sprintf("e0e00000-0000-4000-8000-00000000000%d", i+1), "{}"
		// not due before tomorrow, so the dispatcher leaves them as recorded
		d.NextAttemptAt, d.CreatedAt = now.Add(24*time.Hour), now.Add(time.Duration(i)*time.Second)
		if _, err := m.Store.AddWebhookDelivery(ctx0, &d); err != nil {
			t.Fatal(err)
		}
		if err := m.Store.RecordWebhookAttempt(ctx0, &d); err != nil {
			t.Fatal(err)
		}
	}
	var loc string
	run(t, ctx, rowAction(hook.URL, "Deliveries"), rowHas("deliveries-table", "suspend_user", "failed", "HTTP 503", "upstream unavailable"),
		rowHas("deliveries-table", "manage_tenant", "delivered", "HTTP 204"), chromedp.Location(&loc))
	if !strings.Contains(loc, "webhook="+hook.ID) {
		t.Errorf("the webhook whose deliveries are shown is not in the URL: %s", loc)
	}
	axeCheck(t, ctx, axe, "webhook deliveries")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-webhook-deliveries"))
	run(t, ctx, chromedp.Reload(), rowHas("deliveries-table", "suspend_user", "failed"))

	// the signing secret rotated: confirmed by the URL, shown once, new
	var second string
	run(t, ctx, rowAction(hook.URL, "Rotate secret"), fill("Type the webhook name, "+hook.URL+", to confirm", hook.URL),
		press("Rotate the secret of webhook"), waitShows(`[data-testid="secret"]`, "whsec_"),
		textOf(`[data-testid="secret"]`, &second))
	if second == "" || second == first {
		t.Errorf("rotation showed %q after %q", second, first)
	}
	axeCheck(t, ctx, axe, "rotated webhook secret")
	run(t, ctx, press("Done"), waitGone(`[role="dialog"]`))

	// a service account's secret rotated: the old one stops working
	var secret1, secret2 string
	run(t, ctx, clickText("New service account"), fill("Name", "ci-exporter"), press("Create service account"),
		waitShows(`[data-testid="secret"]`, ""), textOf(`[data-testid="secret"]`, &secret1),
		press("Done"), rowHas("service-accounts-table", "ci-exporter", "secret, rotated"))
	accounts, err := m.Store.ServiceAccounts(ctx0, DemoAcmeCustomerID)
	if err != nil || len(accounts) != 1 {
		t.Fatalf("service accounts: %v %v", accounts, err)
	}
	clientID := accounts[0].ClientID
	if a := clientCredentials(t, m, clientID, secret1, true, nil); a.status != http.StatusOK {
		t.Fatalf("the first secret: %d %v", a.status, a.body)
	}
	run(t, ctx, clickLabel("Rotate secret of ci-exporter"), waitShows(`[role="dialog"]`, "stops working"))
	axeCheck(t, ctx, axe, "rotate service account secret")
	run(t, ctx, fill("Type the service account name, ci-exporter, to confirm", "ci-exporter"),
		press("Rotate the secret of service account"), waitShows(`[data-testid="secret"]`, ""),
		textOf(`[data-testid="secret"]`, &secret2), press("Done"), waitGone(`[role="dialog"]`))
	if a := clientCredentials(t, m, clientID, secret1, true, nil); a.status == http.StatusOK {
		t.Error("the secret before the rotation still works")
	}
	if a := clientCredentials(t, m, clientID, secret2, true, nil); a.status != http.StatusOK {
		t.Errorf("the rotated secret: %d %v", a.status, a.body)
	}
	// its role, changed in its row
	run(t, ctx, choose("Role of ci-exporter", "admin"),
		waitTrue(`document.querySelector('select[aria-label="Role of ci-exporter"]').value === "admin"`))
	if accounts, err := m.Store.ServiceAccounts(ctx0, DemoAcmeCustomerID); err != nil || accounts[0].Role != "admin" {
		t.Fatalf("service account role: %+v %v", accounts, err)
	}
	// public keys: a document that is no JWK Set object is refused at the field
	run(t, ctx, clickLabel("Public keys of ci-exporter"), fill("Public keys (JWK Set)", `[1, 2]`),
		fill("Type the service account name, ci-exporter, to confirm", "ci-exporter"), press("Set the keys of service account"),
		fieldError("Public keys (JWK Set)", "must be a JSON object"))
	axeCheck(t, ctx, axe, "service account keys with an error")
	// a key added: the account signs in with private_key_jwt, no secret left
	key1, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	key2, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	set1, set2 := publicJWKS(t, key1), publicJWKS(t, key2)
	set2["keys"].([]any)[0].(map[string]any)["kid"] = "ci-2"
	run(t, ctx, fill("Public keys (JWK Set)", string(mustJSON(set1))), press("Set the keys of service account"),
		waitGone(`[role="dialog"]`), rowHas("service-accounts-table", "ci-exporter", "keys ci-1"))
	signIn := func(key *ecdsa.PrivateKey) tokenAnswer {
		return clientCredentials(t, m, "", "", false, url.Values{"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
			"client_assertion": {clientAssertion(t, key, clientID, m.Config.IssuerURL)}})
	}
	if a := signIn(key1); a.status != http.StatusOK {
		t.Fatalf("private_key_jwt with the key set in the app: %d %v", a.status, a.body)
	}
	var rotateOffered bool
	run(t, ctx, chromedp.Evaluate(`!!document.querySelector('button[aria-label="Rotate secret of ci-exporter"]')`, &rotateOffered))
	if rotateOffered {
		t.Error("secret rotation offered for a private_key_jwt account")
	}
	// the key removed by leaving it out of the set
	run(t, ctx, clickLabel("Public keys of ci-exporter"), waitShows(`[role="dialog"]`, "Present keys: ci-1"),
		fill("Public keys (JWK Set)", string(mustJSON(set2))), fill("Type the service account name, ci-exporter, to confirm", "ci-exporter"),
		press("Set the keys of service account"), waitGone(`[role="dialog"]`), rowHas("service-accounts-table", "ci-exporter", "keys ci-2"))
	if a := signIn(key1); a.errorCode() != "invalid_client" {
		t.Errorf("a removed key still signs in: %d %v", a.status, a.body)
	}

	// the customer's settings document: bad JSON stays in the browser
	run(t, ctx, fill("Settings document", `{"region": eu}`), press("Save settings document"),
		fieldError("Settings document", "not valid JSON"))
	axeCheck(t, ctx, axe, "settings document with an error")
	run(t, ctx, fill("Settings document", `{"region": "eu", "seats": 40}`), press("Save settings document"),
		waitShows(`[data-testid="saved"]`, "Saved"))
	c, err := m.Store.Customer(ctx0, DemoAcmeCustomerID)
	var doc map[string]any
	if err != nil || json.Unmarshal(c.Settings, &doc) != nil || doc["region"] != "eu" || doc["seats"] != float64(40) {
		t.Fatalf("customer settings: %s %v", c.Settings, err)
	}

	// the owner manages a tenant's members and settings, but is offered
	// neither its transfer nor its migrations
	run(t, ctx, open(m, "/portal/tenants/"+DemoAcmeTenantID, "Harbor Campus"), waitShows(`main`, "Members"))
	bs, _ := buttons(ctx)
	var tabs []string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].map(t => t.textContent.trim())`, &tabs))
	if has(bs, "Transfer to another customer") || has(tabs, "Migrations") {
		t.Errorf("owner offered a transfer or migrations: %v %v", bs, tabs)
	}
	axeCheck(t, ctx, axe, "tenant (owner)")
}

// A billing user reads the invoices, payments and credits with their
// amounts, issues a credit and corrects the billing setup; a viewer is
// offered no billing at all, and sees a tenant read only.
func TestBrowserConsoleAppBilling(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx0 := context.Background()
	bill := mustConsoleUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b1", DemoAcmeOrgID, "bill@acme.example", "Bill Ing",
		"billing", DemoAcmeCustomerID)

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "bill@acme.example")
	run(t, ctx, open(m, "/portal?tab=billing", "Acme Construction"), waitShows(`[data-testid="invoices-table"]`, "INV-"),
		waitTrue(`/€|EUR/.test(document.querySelector('[data-testid="invoices-table"] tbody').textContent)`))
	axeCheck(t, ctx, axe, "billing invoices")

	var loc string
	run(t, ctx, clickText("Payments"), waitShows(`[data-testid="payments-table"]`, "€"), chromedp.Location(&loc))
	if !strings.Contains(loc, "view=payments") {
		t.Errorf("the billing view is not in the URL: %s", loc)
	}
	var hidden bool
	run(t, ctx, chromedp.Evaluate(`document.body.textContent.includes("Hidden for your role")`, &hidden))
	if hidden {
		t.Error("a billing user's amounts are hidden")
	}
	axeCheck(t, ctx, axe, "billing payments")
	run(t, ctx, chromedp.Reload(), waitShows(`[data-testid="payments-table"]`, "€"))

	run(t, ctx, clickText("Credits"), waitShows(`[data-testid="empty"]`, "No credits"), clickText("New credit"),
		fill("Currency", "EUR"), fill("Reason", "Outage on 2026-11-02"), press("Issue credit"), fieldError("Amount", "greater than 0"))
	axeCheck(t, ctx, axe, "issue credit with an error")
	run(t, ctx, fill("Amount", "12.5"), press("Issue credit"), waitGone(`[role="dialog"]`),
		rowHas("credits-table", "€12.50", "Outage on 2026-11-02"))
	credits, _, err := m.Store.Credits(ctx0, store.BillingQuery{Customers: authz.Filter{All: true}, CustomerID: DemoAcmeCustomerID, Limit: 10})
	if err != nil || len(credits) != 1 || credits[0].AmountCents != 1250 || credits[0].IssuedBy != bill.ID {
		t.Fatalf("credits: %+v %v", credits, err)
	}
	axeCheck(t, ctx, axe, "billing credits")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-billing-credits"))

	run(t, ctx, clickText("Billing setup"), waitShows(`main`, "Last changed"), fill("Country", "Germany"),
		press("Save billing setup"), fieldError("Country", "ISO 3166-1"))
	axeCheck(t, ctx, axe, "billing setup with an error")
	run(t, ctx, fill("Country", "AT"), fill("Billing e-mail", "ap@acme.example"), press("Save billing setup"),
		waitShows(`[data-testid="saved"]`, "Saved"))
	b, err := m.Store.BillingSetup(ctx0, DemoAcmeCustomerID)
	if err != nil || b.Country != "AT" || b.BillingEmail != "ap@acme.example" || b.PlanID != DemoPlanBusinessID {
		t.Fatalf("billing setup: %+v %v", b, err)
	}

	// 390 px wide: the billing views do not overflow sideways
	for _, view := range []string{"payments", "setup"} {
		var overflow bool
		run(t, ctx, chromedp.EmulateViewport(390, 844), open(m, "/portal?tab=billing&view="+view, "Acme Construction"),
			waitTrue(`!!document.querySelector('[data-testid="payments-table"]') || document.body.textContent.includes("Last changed")`),
			chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
		if overflow {
			t.Errorf("billing %s is wider than 390 px", view)
		}
		axeCheck(t, ctx, axe, "billing "+view+" at 390 px")
	}

	// a viewer has no billing tab, and the URL does not open one
	vctx := mustBrowser(t)
	run(t, vctx, gatewayEmail(m.Config.ConsoleURL+"/", "dana@partner.example"),
		chromedp.WaitVisible(`#org-step`, chromedp.ByID),
		chromedp.Click(`//button[text()="Acme Construction"]`, chromedp.BySearch),
		providerPassword(DemoPassword), waitShows(`[data-testid="role"]`, "viewer"))
	var tabs []string
	run(t, vctx, open(m, "/portal?tab=billing", "Acme Construction"),
		chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].map(t => t.textContent.trim())`, &tabs))
	if has(tabs, "Billing") || has(tabs, "Sign-in") || has(tabs, "Settings") {
		t.Errorf("viewer offered %v", tabs)
	}
	var payments bool
	run(t, vctx, chromedp.Evaluate(`!!document.querySelector('[data-testid="payments-table"], [data-testid="invoices-table"]')`, &payments))
	if payments {
		t.Error("viewer shown billing through the URL")
	}
	// a tenant's page: read only
	run(t, vctx, open(m, "/portal/tenants/"+DemoAcmeTenantID, "Harbor Campus"), waitShows(`main`, "Members"))
	bs, _ := buttons(vctx)
	for _, b := range bs {
		for _, w := range []string{"Add", "Remove", "Transfer", "Save", "Trigger"} {
			if strings.HasPrefix(b, w) {
				t.Errorf("viewer offered %q on a tenant", b)
			}
		}
	}
	var readOnly bool
	run(t, vctx, clickText("Settings"), waitShows(`main`, "Tenant settings"),
		chromedp.Evaluate(`[...document.querySelectorAll("main textarea")].every(e => e.readOnly) && !!document.querySelector("main textarea") && !document.querySelector("main select")`, &readOnly))
	if !readOnly {
		t.Error("viewer can edit a tenant's settings or members")
	}
	axeCheck(t, vctx, axe, "tenant (viewer)")
}

// A platform_admin manages a tenant: members, settings, a migration and a
// transfer to another customer; and moves a user's home organization.
func TestBrowserConsoleAppTenantAdministration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	ctx0 := context.Background()
	appSignIn(t, ctx, m, "admin@platform.example")

	run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), waitShows(`[data-testid="tenants-table"]`, "Harbor Campus"),
		clickText("Harbor Campus"), waitShows(`#page-title`, "Harbor Campus"), waitShows(`[data-testid="tenant-customer"]`, "Acme Construction"))
	axeCheck(t, ctx, axe, "tenant")

	// members: bob added as viewer, made admin, then removed by name
	run(t, ctx, fill("User", "2b7e4d10-0000-4000-8000-000000000003"), fill("Tenant role", "viewer"), press("Add member"),
		rowHas("members-table", "bob@acme.example", "viewer"))
	run(t, ctx, choose("Tenant role of bob@acme.example", "admin"),
		waitTrue(`document.querySelector('select[aria-label="Tenant role of bob@acme.example"]').value === "admin"`))
	// the select shows the role the server answered
	if members, err := m.Store.TenantMembers(ctx0, DemoAcmeTenantID); err != nil || !hasMember(members, "bob@acme.example", "admin") {
		t.Fatalf("members after the role change: %+v %v", members, err)
	}
	axeCheck(t, ctx, axe, "tenant members")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-tenant-members"))
	run(t, ctx, clickLabel("Remove bob@acme.example"), fill("Type the member name, bob@acme.example, to confirm", "bob@acme.example"),
		press("Remove member"), waitGone(`[role="dialog"]`),
		waitTrue(`!document.querySelector('[data-testid="members-table"]')?.textContent.includes("bob@acme.example")`))
	if members, _ := m.Store.TenantMembers(ctx0, DemoAcmeTenantID); hasMember(members, "bob@acme.example", "") {
		t.Error("bob is still a member")
	}

	// settings: a document that is no JSON object is refused at the field
	// before it is sent, then saved
	run(t, ctx, clickText("Settings"), waitShows(`main`, "Tenant settings"), fill("Tenant settings", `"eu"`),
		press("Save tenant settings"), fieldError("Tenant settings", "must be a JSON object"))
	run(t, ctx, fill("Tenant settings", `{"timezone": "Europe/Berlin"}`), press("Save tenant settings"),
		waitShows(`[data-testid="saved"]`, "Saved"))
	axeCheck(t, ctx, axe, "tenant settings")
	tn, err := m.Store.Tenant(ctx0, DemoAcmeTenantID)
	if err != nil || !strings.Contains(string(tn.Settings), "Europe/Berlin") {
		t.Fatalf("tenant settings: %s %v", tn.Settings, err)
	}

	// a migration: too long a version refused at its field, then requested
	run(t, ctx, clickText("Migrations"), waitShows(`main`, "Target version"), fill("Target version", strings.Repeat("9", 65)),
		press("Trigger migration"), fieldError("Target version", "at most 64"))
	run(t, ctx, fill("Target version", "2026.11.2"), press("Trigger migration"),
		rowHas("migrations-table", "2026.11.2", "requested"))
	axeCheck(t, ctx, axe, "tenant migrations")
	var loc string
	run(t, ctx, chromedp.Location(&loc), chromedp.Reload(), rowHas("migrations-table", "2026.11.2"))
	if !strings.Contains(loc, "tab=migrations") {
		t.Errorf("the tenant's tab is not in the URL: %s", loc)
	}

	// 390 px wide: the tenant page does not overflow sideways
	var overflow bool
	run(t, ctx, chromedp.EmulateViewport(390, 844), chromedp.Reload(), rowHas("migrations-table", "2026.11.2"),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the tenant page is wider than 390 px")
	}
	axeCheck(t, ctx, axe, "tenant at 390 px")
	run(t, ctx, chromedp.EmulateViewport(1280, 800))

	// transfer to Globex, confirmed by the tenant's name
	run(t, ctx, clickText("Transfer to another customer"), fill("Type the tenant name, Harbor Campus, to confirm", "Harbor Campus"),
		press("Transfer tenant"), fieldError("Destination customer", "is required"))
	axeCheck(t, ctx, axe, "tenant transfer with an error")
	run(t, ctx, pick("Destination customer", "Glob", "Globex Engineering"), press("Transfer tenant"), waitGone(`[role="dialog"]`),
		waitShows(`[data-testid="tenant-customer"]`, "Globex Engineering"))
	if tn, err := m.Store.Tenant(ctx0, DemoAcmeTenantID); err != nil || tn.CustomerID != DemoGlobexCustomerID {
		t.Fatalf("tenant after the transfer: %+v %v", tn, err)
	}

	// bob's home organization moves to Globex
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=users", "Acme Construction"),
		waitShows(`[data-testid="users-table"]`, "bob@acme.example"), rowAction("bob@acme.example", "Move to another customer"),
		pick("Destination customer", "Glob", "Globex Engineering"), waitShows(`[role="dialog"]`, "an owner arrives as admin"))
	axeCheck(t, ctx, axe, "home-org transfer")
	run(t, ctx, fill("Type the user name, bob@acme.example, to confirm", "bob@acme.example"), press("Move user"),
		waitGone(`[role="dialog"]`), waitTrue(`!document.querySelector('[data-testid="users-table"]').textContent.includes("bob@acme.example")`))
	u, err := m.Store.CustomerUser(ctx0, "2b7e4d10-0000-4000-8000-000000000003")
	if err != nil || u.CustomerID != DemoGlobexCustomerID || u.OrgID != DemoGlobexOrgID {
		t.Fatalf("bob after the move: %+v %v", u, err)
	}
	run(t, ctx, open(m, "/dashboard/customers/"+DemoGlobexCustomerID+"?tab=users", "Globex Engineering"),
		rowHas("users-table", "bob@acme.example", "member"))
}

// mustConsoleUser adds a user with the demo password and a console role
// (of customerID, or internal when it is "").
func mustConsoleUser(t *testing.T, m *Main, id, orgID, email, name, role, customerID string) *platform.User {
	t.Helper()
	ctx := context.Background()
	demo, err := m.Store.User(ctx, "2b7e4d10-0000-4000-8000-000000000001")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	u := &platform.User{ID: id, OrgID: orgID, Email: email, EmailVerified: true, Name: name, PasswordHash: demo.PasswordHash,
		CreatedAt: now, UpdatedAt: now}
	if err := m.Store.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := m.Store.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: role, CustomerID: customerID, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	return u
}

func hasMember(ms []store.TenantMember, email, role string) bool {
	for _, m := range ms {
		if m.Email == email && (role == "" || m.Role == role) {
			return true
		}
	}
	return false
}

// The owner turns on just-in-time groups for a provider in its form: a line
// that is no "value = group" is refused in place, the saved mapping is the
// provider's (read back through REST) and shows again when the form opens.
//
// spec: D-jit-groups
func TestBrowserConsoleAppJITGroups(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	owner := consoleToken(t, m, "alice@acme.example")
	if code, body := adminCall(t, m, owner, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/groups", map[string]any{"name": "Engineers", "role": "viewer"}); code != 201 {
		t.Fatalf("group = %d %v", code, body)
	}
	if code, body := adminCall(t, m, owner, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/identity-providers", map[string]any{
		"name": "Entra", "issuer": "https://login.acme.example", "clientId": "abc", "clientSecret": "s3cret"}); code != 201 {
		t.Fatalf("provider = %d %v", code, body)
	}
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=sso", "Acme Construction"), rowHas("identity-providers-table", "Entra"),
		clickLabel("Edit Entra"), waitShows(`[role="dialog"]`, "Group mapping"),
		fill("Groups claim", "groups"), fill("Group mapping", "CN=Eng,OU=Groups = Engineers\nbroken"), press("Save identity provider"),
		waitShows(`[role="dialog"]`, `Write each line as "value = group": broken`))
	axeCheck(t, ctx, axe, "provider form with a mapping error")
	run(t, ctx, fill("Group mapping", "CN=Eng,OU=Groups = Engineers"), press("Save identity provider"), waitGone(`[role="dialog"]`))
	_, list := adminCall(t, m, owner, http.MethodGet, "/customers/"+DemoAcmeCustomerID+"/identity-providers", nil)
	items, _ := list["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("providers = %v", list)
	}
	p := items[0].(map[string]any)
	if mapping, _ := p["groupMapping"].(map[string]any); p["groupsClaim"] != "groups" || mapping["CN=Eng,OU=Groups"] != "Engineers" {
		t.Fatalf("saved provider = %v", p)
	}
	var shown string
	run(t, ctx, clickLabel("Edit Entra"), waitShows(`[role="dialog"]`, "Group mapping"),
		chromedp.Evaluate(`[...document.querySelectorAll('[role="dialog"] textarea')].map(t => t.value).join("|")`, &shown))
	if shown != "CN=Eng,OU=Groups = Engineers" {
		t.Fatalf("the form shows the mapping as %q", shown)
	}
}
