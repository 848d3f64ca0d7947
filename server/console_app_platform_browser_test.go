package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The console app's internal-platform sections in Chromium: plans and
// meters, releases and environment variables, internal users, user
// attributes, discrepancies, instances and grants, each action taken by
// platform_admin through the GraphQL API, with axe-core on every page and
// dialog; a QA administrator acts only within its instances; read-only
// roles are offered no write control.

// clickLabel clicks the button named label (its aria-label).
func clickLabel(label string) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`button[aria-label=%q]`, label), chromedp.ByQuery)
}

// confirmTyped types name into the open confirmation and presses its button.
func confirmTyped(kind, name, button string) chromedp.Tasks {
	return chromedp.Tasks{fill(fmt.Sprintf("Type the %s name, %s, to confirm", kind, name), name), clickText(button), waitGone(`[role="dialog"]`)}
}

// pick chooses an option of a searchable select: types search into the
// field labelled label and clicks the option whose text contains option.
func pick(label, search, option string) chromedp.Tasks {
	return chromedp.Tasks{
		fill(label, search),
		waitTrue(fmt.Sprintf(`(() => { const o = [...document.querySelectorAll('[role="option"]')].find(o => o.offsetParent !== null && o.textContent.includes(%q)); if (!o) return false; o.click(); return true; })()`, option)),
	}
}

// choose sets the select named label (its aria-label) to value.
func choose(label, value string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const el = document.querySelector('select[aria-label=%q]');
	  if (!el) return false;
	  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(el, %q);
	  el.dispatchEvent(new Event("change", {bubbles: true}));
	  return true;
	})()`, label, value))
}

// fieldErrors answers the label of the dialog's fields marked invalid.
func fieldErrors(ctx context.Context) (string, error) {
	var s string
	err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="dialog"] [aria-invalid="true"]')].map(e => document.querySelector('label[for="' + e.id + '"]').textContent.replace(/\s*\*$/, "")).join()`, &s))
	return s, err
}

// rowHas waits until a row of the table contains every text.
func rowHas(table string, texts ...string) chromedp.Action {
	var conds []string
	for _, s := range texts {
		conds = append(conds, fmt.Sprintf("r.textContent.includes(%q)", s))
	}
	return waitTrue(fmt.Sprintf(`[...document.querySelectorAll('[data-testid=%[1]q] tbody tr, [data-testid=%[1]q] > li')].some(r => %[2]s)`, table, strings.Join(conds, " && ")))
}

// noRowHas waits until no row of the table (if any) contains text.
func noRowHas(table, text string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`![...document.querySelectorAll('[data-testid=%[1]q] tbody tr, [data-testid=%[1]q] > li')].some(r => r.textContent.includes(%[2]q))`, table, text))
}

// mustInternalUser adds an internal user with the demo password.
func mustInternalUser(t *testing.T, m *Main, id, email, name, role string) {
	t.Helper()
	mustConsoleUser(t, m, id, DemoAdminOrgID, email, name, role, "")
}

// platform_admin creates, edits and deletes plans and meters; a server
// validation message is shown at its field.
func TestBrowserConsoleAppCatalog(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/catalog", "Plans and meters"), rowHas("plans-table", "Team", "€49.00"))
	axeCheck(t, ctx, axe, "catalog")

	run(t, ctx, clickText("New plan"), fill("Code", "Pro plan"), fill("Name", "Pro"), fill("Monthly fee", "99"),
		clickText("Create plan"), waitShows(`[role="dialog"] .mantine-InputWrapper-error`, "Code must"))
	if got, _ := fieldErrors(ctx); got != "Code" {
		t.Errorf("the code's error is not at its field: %q", got)
	}
	axeCheck(t, ctx, axe, "new plan with an error")
	run(t, ctx, fill("Code", "pro"), clickText("Create plan"), waitGone(`[role="dialog"]`), rowHas("plans-table", "pro", "Pro", "€99.00"))

	run(t, ctx, clickLabel("Edit plan Pro"), fill("Monthly fee", "lots"), clickText("Save plan"),
		waitShows(`[role="dialog"] .mantine-InputWrapper-error`, "must be a number"))
	if got, _ := fieldErrors(ctx); got != "Monthly fee" {
		t.Errorf("the fee's error is not at its field: %q", got)
	}
	run(t, ctx, fill("Monthly fee", "129"), fill("Description", "For growing teams"),
		clickText("Save plan"), waitGone(`[role="dialog"]`), rowHas("plans-table", "Pro", "€129.00"))
	run(t, ctx, clickLabel("Delete plan Pro"))
	axeCheck(t, ctx, axe, "delete plan confirmation")
	run(t, ctx, confirmTyped("plan", "Pro", "Delete plan"), noRowHas("plans-table", "€129.00"), rowHas("plans-table", "Team"))

	run(t, ctx, clickText("New meter"), fill("Key", "seats"), fill("Name", "Seats"), fill("Unit", "seat"), clickText("Create meter"),
		waitGone(`[role="dialog"]`), rowHas("meters-table", "seats", "Seats", "sum"))
	run(t, ctx, clickLabel("Edit meter Seats"), fill("Aggregation", "max"), clickText("Save meter"), waitGone(`[role="dialog"]`),
		rowHas("meters-table", "Seats", "max"))
	run(t, ctx, clickLabel("Delete meter Seats"), confirmTyped("meter", "Seats", "Delete meter"), noRowHas("meters-table", "Seats"))
	// reload: the changes are the server's
	run(t, ctx, chromedp.Reload(), rowHas("meters-table", "API calls"), noRowHas("meters-table", "Seats"), noRowHas("plans-table", "Pro"))
	_ = chromedp.Run(ctx, shot(t, ctx, "app-catalog"))

	// 390 px: the page does not overflow sideways
	var overflow bool
	run(t, ctx, chromedp.EmulateViewport(390, 844), open(m, "/dashboard/catalog", "Plans and meters"), rowHas("plans-table", "Team"),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the catalog is wider than 390 px")
	}
	axeCheck(t, ctx, axe, "catalog at 390 px")
}

// platform_admin creates, publishes and withdraws a release, and sets,
// edits and removes environment variables; a secret value is never shown
// back.
func TestBrowserConsoleAppReleases(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/releases", "Releases and environment"), waitShows(`main`, "No releases yet."), waitShows(`main`, "No variables yet."))
	axeCheck(t, ctx, axe, "releases (empty)")

	run(t, ctx, clickText("New release"), fill("Version", "next"), clickText("Create release"), waitShows(`[role="dialog"] .mantine-InputWrapper-error`, "Version must"))
	if got, _ := fieldErrors(ctx); got != "Version" {
		t.Errorf("the version's error is not at its field: %q", got)
	}
	run(t, ctx, fill("Version", "1.4.0"), fill("Notes", "Faster uploads"), clickText("Create release"), waitGone(`[role="dialog"]`),
		rowHas("releases-table", "1.4.0", "draft"))
	run(t, ctx, clickLabel("Publish 1.4.0"), rowHas("releases-table", "1.4.0", "published"))
	run(t, ctx, clickLabel("Withdraw 1.4.0"))
	axeCheck(t, ctx, axe, "withdraw confirmation")
	run(t, ctx, confirmTyped("release", "1.4.0", "Withdraw release"), rowHas("releases-table", "1.4.0", "withdrawn"))

	const secret = "hunter2-smtp-password"
	run(t, ctx, clickText("Set variable"), fill("Name", "SMTP_PASSWORD"), fill("Value", secret),
		chromedp.Click(`//label[starts-with(normalize-space(.), "Secret")]`, chromedp.BySearch), clickText("Save variable"),
		waitGone(`[role="dialog"]`), rowHas("environment-variables-table", "SMTP_PASSWORD", "secret, not shown"))
	run(t, ctx, clickLabel("Edit SMTP_PASSWORD"), waitShows(`[role="dialog"]`, "Leave empty to keep it"))
	var shown string
	run(t, ctx, chromedp.Evaluate(`document.querySelector('[role="dialog"] input[type="password"]').value`, &shown))
	if shown != "" {
		t.Errorf("the secret's value is shown in the form: %q", shown)
	}
	axeCheck(t, ctx, axe, "edit secret variable")
	run(t, ctx, fill("Description", "Mail relay"), clickText("Save variable"), waitGone(`[role="dialog"]`),
		rowHas("environment-variables-table", "SMTP_PASSWORD", "Mail relay", "secret, not shown"))
	run(t, ctx, clickText("Set variable"), fill("Name", "LOG_LEVEL"), fill("Value", "debug"), clickText("Save variable"),
		waitGone(`[role="dialog"]`), rowHas("environment-variables-table", "LOG_LEVEL", "debug"))
	run(t, ctx, chromedp.Reload(), rowHas("environment-variables-table", "LOG_LEVEL"))
	var page string
	run(t, ctx, chromedp.Evaluate(`document.documentElement.outerHTML`, &page))
	if strings.Contains(page, secret) {
		t.Error("the secret value is in the page")
	}
	_ = chromedp.Run(ctx, shot(t, ctx, "app-releases"))
	run(t, ctx, clickLabel("Remove LOG_LEVEL"), confirmTyped("variable", "LOG_LEVEL", "Remove variable"),
		noRowHas("environment-variables-table", "LOG_LEVEL"), rowHas("environment-variables-table", "SMTP_PASSWORD"))
}

// platform_admin invites internal users, changes a role, grants an account
// manager a customer picked from the list of account managers and QA
// administrators, removes the grant and the user.
func TestBrowserConsoleAppInternalUsersAndGrants(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), rowHas("internal-users-table", "admin@platform.example"))
	axeCheck(t, ctx, axe, "internal users")

	run(t, ctx, clickText("Invite internal user"), fill("E-mail", "mia@platform.example"), fill("Name", "Mia Manager"),
		fill("Role", "qa_admin"), clickText("Send invitation"), waitGone(`[role="dialog"]`),
		rowHas("internal-users-table", "mia@platform.example", "Mia Manager"))
	// a server refusal at its field: the address is taken
	run(t, ctx, clickText("Invite internal user"), fill("E-mail", "mia@platform.example"), fill("Name", "Mia Again"),
		clickText("Send invitation"), waitTrue(`!!document.querySelector('[role="dialog"] [role="alert"], [role="dialog"] [aria-invalid="true"]')`))
	axeCheck(t, ctx, axe, "invite refused")
	run(t, ctx, clickText("Cancel"), waitGone(`[role="dialog"]`))
	// the role select of the row, confirmed (typed: a raise); the own row has none
	run(t, ctx, choose("Role of mia@platform.example", "account_manager"),
		confirmTyped("internal user", "mia@platform.example", "Change to account_manager"),
		waitShows(`[data-testid="done"]`, "mia@platform.example is now account_manager"),
		chromedp.Reload(),
		waitTrue(`document.querySelector('select[aria-label="Role of mia@platform.example"]')?.value === "account_manager"`))
	var own bool
	run(t, ctx, chromedp.Evaluate(`!!document.querySelector('select[aria-label="Role of admin@platform.example"]')`, &own))
	if own {
		t.Error("platform_admin is offered to change its own role")
	}

	// the grant form picks the user from account managers and QA administrators
	run(t, ctx, open(m, "/dashboard/grants", "Grants"), waitShows(`main`, "No grants"), clickText("New grant"), fill("User", "a"),
		waitTrue(`[...document.querySelectorAll('[role="option"]')].some(o => o.offsetParent !== null && o.textContent.includes("@platform.example"))`))
	var options string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="option"]')].filter(o => o.offsetParent !== null).map(o => o.textContent).join("|")`, &options))
	if !strings.Contains(options, "mia@platform.example") || strings.Contains(options, "admin@platform.example") {
		t.Errorf("grantee choices: %q", options)
	}
	axeCheck(t, ctx, axe, "new grant")
	run(t, ctx, pick("User", "Mia", "mia@platform.example"), pick("Customer", "Glob", "Globex Engineering"), clickText("Grant"),
		waitGone(`[role="dialog"]`), rowHas("grants-table", "Mia Manager", "account_manager", "Globex Engineering"))
	axeCheck(t, ctx, axe, "grants")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-grants"))
	// the user filter is a search select too, kept in the URL
	var loc string
	run(t, ctx, pick("User", "Mia", "mia@platform.example"), waitTrue(`location.search.startsWith("?user=")`), chromedp.Reload(),
		rowHas("grants-table", "Mia Manager", "Globex Engineering"), chromedp.Location(&loc))
	if !strings.Contains(loc, "/dashboard/grants?user=") {
		t.Errorf("the user filter is not in the URL: %s", loc)
	}
	// the customer filter searches the server as one types; after a reload
	// it names the customer of the URL, not its id
	run(t, ctx, pick("Customer", "glob", "Globex Engineering"), waitTrue(`location.search.includes("customer=")`), chromedp.Reload(),
		rowHas("grants-table", "Mia Manager", "Globex Engineering"),
		waitTrue(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.trim() === "Customer");
		  return !!l && document.getElementById(l.htmlFor)?.value === "Globex Engineering"; })()`))
	axeCheck(t, ctx, axe, "grants filtered")
	run(t, ctx, clickLabel("Remove grant of mia@platform.example on Globex Engineering"),
		confirmTyped("grant on", "Globex Engineering", "Remove grant on"), waitShows(`main`, "No grants"))

	run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), rowAction("mia@platform.example", "Remove"))
	axeCheck(t, ctx, axe, "remove internal user")
	run(t, ctx, confirmTyped("internal user", "mia@platform.example", "Remove internal user"),
		noRowHas("internal-users-table", "mia@platform.example"))
}

// platform_admin defines, edits and deletes a user attribute, and resolves
// and reopens a discrepancy; the status filter is in the URL.
func TestBrowserConsoleAppAttributesAndDiscrepancies(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/attributes", "User attributes"), waitShows(`[data-testid="empty"]`, "No user attributes"))
	axeCheck(t, ctx, axe, "attributes (empty)")
	run(t, ctx, clickText("New attribute"), fill("Key", "Department!"), fill("Label", "Department"), fill("Type", "enum"),
		fill("Options", "Sales\nOperations"), clickText("Create attribute"), waitShows(`[role="dialog"] .mantine-InputWrapper-error`, ""))
	if got, _ := fieldErrors(ctx); got != "Key" {
		t.Errorf("the key's error is not at its field: %q", got)
	}
	axeCheck(t, ctx, axe, "new attribute with an error")
	run(t, ctx, fill("Key", "department"), clickText("Create attribute"), waitGone(`[role="dialog"]`),
		rowHas("user-attributes-table", "department", "enum (Sales, Operations)"))
	run(t, ctx, clickLabel("Edit department"), fill("Label", "Team"), chromedp.Click(`//label[normalize-space(.)="Required"]`, chromedp.BySearch),
		clickText("Save attribute"), waitGone(`[role="dialog"]`), rowHas("user-attributes-table", "department", "Team", "yes"))
	run(t, ctx, clickLabel("Delete department"), confirmTyped("attribute", "department", "Delete attribute"),
		waitShows(`[data-testid="empty"]`, "No user attributes"))

	const item = "Invoice total differs"
	run(t, ctx, open(m, "/dashboard/discrepancies", "Discrepancies"), rowHas("discrepancies-table", item, "open"))
	axeCheck(t, ctx, axe, "discrepancies")
	run(t, ctx, clickLabel("Resolve Invoice total differs from metered usage by 0.40 EUR"), clickText("Mark resolved"),
		waitShows(`[role="dialog"] .mantine-InputWrapper-error`, "Resolution is required"))
	if got, _ := fieldErrors(ctx); got != "Resolution" {
		t.Errorf("the resolution's error is not at its field: %q", got)
	}
	axeCheck(t, ctx, axe, "resolve with an error")
	run(t, ctx, fill("Resolution", "Credited 0.40 EUR"), clickText("Mark resolved"), waitGone(`[role="dialog"]`),
		waitShows(`[data-testid="empty"]`, "The inbox is empty"))
	var loc string
	run(t, ctx, fill("Status", "resolved"), rowHas("discrepancies-table", item, "Credited 0.40 EUR"), chromedp.Reload(),
		rowHas("discrepancies-table", item, "resolved"), chromedp.Location(&loc))
	if !strings.HasSuffix(loc, "/dashboard/discrepancies?status=resolved") {
		t.Errorf("the status filter is not in the URL: %s", loc)
	}
	run(t, ctx, clickLabel("Reopen Invoice total differs from metered usage by 0.40 EUR"), waitShows(`[data-testid="empty"]`, "Nothing has been resolved"),
		fill("Status", "open"), rowHas("discrepancies-table", item, "open"))
}

// platform_admin creates a confidential instance (its client secret shown
// once, with copy), edits it, repairs and rotates its connection, replaces
// its client secret (shown once), opens its database URI and deletes it by
// typing its name; a public instance's secret rotation is refused with the
// server's sentence.
func TestBrowserConsoleAppInstances(t *testing.T) {
	t.Parallel()
	// the password sign-in here has no second factor: step-up (D-step-up,
	// TestBrowserConsoleAppStepUp) is off for the dangerous action this page test reaches
	m := mustRunMainWith(t, func(m *Main) { m.Config.StepUpMaxAge = 0 })
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/instances", "Instances"), rowHas("instances-table", "Acme production"), clickText("New instance"),
		pick("Customer", "Globex", "Globex Engineering"), fill("Name", "Globex API"), fill("URL", "ftp://api.globex.example"),
		fill("Application type", "client_secret_basic"), fill("Database URI", "postgres://globex:pw@db.globex.example/app"),
		tick("Require DPoP", true),
		clickText("Create instance"), waitShows(`[role="dialog"] .mantine-InputWrapper-error`, "must be an absolute http(s) address"))
	if got, _ := fieldErrors(ctx); got != "URL" {
		t.Errorf("the URL's error is not at its field: %q", got)
	}
	var secret string
	run(t, ctx, fill("URL", "https://api.globex.example"), clickText("Create instance"), waitShows(`[data-testid="secret"]`, ""),
		textOf(`[data-testid="secret"]`, &secret))
	if len(secret) < 16 {
		t.Errorf("client secret shown: %q", secret)
	}
	axeCheck(t, ctx, axe, "instance client secret")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-instance-secret"))
	run(t, ctx, waitShows(`[role="dialog"]`, "Copy"), clickText("Done"), waitGone(`[role="dialog"]`), rowHas("instances-table", "Globex API"),
		clickText("Globex API"), waitShows(`#page-title`, "Globex API"), waitShows(`[data-testid="connection"]`, "https://api.globex.example/auth/callback"),
		waitShows(`[data-testid="require-dpop"]`, "required"))
	var page string
	run(t, ctx, chromedp.Evaluate(`document.body.innerText`, &page))
	if strings.Contains(page, secret) {
		t.Error("the client secret is shown again on the instance's page")
	}
	axeCheck(t, ctx, axe, "instance page")

	run(t, ctx, clickText("Edit instance"), fill("URL", "https://api2.globex.example"), tick("Require DPoP", false), clickText("Save instance"),
		waitGone(`[role="dialog"]`), waitShows(`[data-testid="instance-details"]`, "https://api2.globex.example"),
		waitShows(`[data-testid="require-dpop"]`, "optional"),
		waitShows(`[data-testid="connection"]`, "https://api2.globex.example/auth/callback"))
	run(t, ctx, clickText("Repair connection"), waitShows(`[data-testid="done"]`, "registered again"))
	clientID := func() string {
		var s string
		run(t, ctx, chromedp.Evaluate(`document.querySelector('[data-testid="connection"] code').textContent`, &s))
		return s
	}
	before := clientID()
	run(t, ctx, clickText("Rotate client id"))
	axeCheck(t, ctx, axe, "rotate confirmation")
	run(t, ctx, confirmTyped("client id of", "Globex API", "Rotate client id of"), waitShows(`[data-testid="done"]`, "rotated"),
		waitTrue(fmt.Sprintf(`document.querySelector('[data-testid="connection"] code').textContent !== %q`, before)))
	if after := clientID(); after == before || after == "" {
		t.Errorf("client id after rotation: %q (before %q)", after, before)
	}
	// the client secret is replaced: typed name, the new secret shown once
	var rotated string
	run(t, ctx, clickText("Rotate client secret"), fill("Type the instance name, Globex API, to confirm", "Globex API"))
	axeCheck(t, ctx, axe, "rotate secret confirmation")
	run(t, ctx, clickText("Rotate the secret of instance"), waitShows(`[data-testid="secret"]`, ""),
		textOf(`[data-testid="secret"]`, &rotated), waitShows(`[role="dialog"]`, "Copy"))
	if len(rotated) < 16 || rotated == secret {
		t.Errorf("rotated client secret shown: %q (was %q)", rotated, secret)
	}
	axeCheck(t, ctx, axe, "rotated client secret")
	run(t, ctx, clickText("Done"), waitGone(`[role="dialog"]`))
	run(t, ctx, chromedp.Evaluate(`document.body.innerText`, &page))
	if strings.Contains(page, rotated) {
		t.Error("the rotated client secret is still shown on the instance's page")
	}
	run(t, ctx, clickText("Show database URI"), waitShows(`[data-testid="database-uri"]`, "postgres://globex:pw@db.globex.example/app"))
	axeCheck(t, ctx, axe, "database URI")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-instance"))
	// 390 px: the page does not overflow sideways
	var overflow bool
	run(t, ctx, chromedp.EmulateViewport(390, 844), chromedp.Reload(), waitShows(`[data-testid="connection"]`, "api2.globex.example"),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow), shot(t, ctx, "app-390-instance"))
	if overflow {
		t.Error("the instance page is wider than 390 px")
	}
	axeCheck(t, ctx, axe, "instance page at 390 px")
	run(t, ctx, chromedp.EmulateViewport(1280, 800))

	var loc string
	run(t, ctx, clickText("Delete this instance"), confirmTyped("instance", "Globex API", "Delete instance"), waitShows(`#page-title`, "Instances"),
		rowHas("instances-table", "Acme production"), noRowHas("instances-table", "Globex API"), chromedp.Location(&loc))
	if !strings.HasSuffix(loc, "/dashboard/instances") {
		t.Errorf("after delete: %s", loc)
	}

	// a public application has no secret: the server's sentence, in the dialog
	run(t, ctx, clickText("Acme production"), waitShows(`#page-title`, "Acme production"), clickText("Rotate client secret"),
		fill("Type the instance name, Acme production, to confirm", "Acme production"), clickText("Rotate the secret of instance"),
		waitShows(`[role="dialog"]`, "public client without a client secret"), clickText("Cancel"), waitGone(`[role="dialog"]`))
}

// A QA administrator sees and acts only within its customer and instance:
// tenants on other instances and other customers are not listed, another
// customer's page is refused with the plain sentence (strict scope, 403),
// and the infrastructure pages are not offered, even by URL.
// spec: R5.7-strict, R5.7-and, R4.6-infra
func TestBrowserConsoleAppQAAdmin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx0 := context.Background()
	const qa = "2b7e4d10-0000-4000-8000-0000000000b1"
	mustInternalUser(t, m, qa, "quinn@platform.example", "Quinn QA", "qa_admin")
	now := time.Now().UTC()
	const staging = "1d57a9c0-0000-4000-8000-0000000000b2"
	if err := m.Store.CreateInstance(ctx0, &platform.Instance{ID: staging, CustomerID: DemoAcmeCustomerID, Name: "Acme staging",
		URL: "https://staging.acme.example", CreatedAt: now}, &platform.InstanceConnection{InstanceID: staging, OIDCClientID: "staging-client",
		OIDCRedirectURI: "https://staging.acme.example/auth/callback", IDPAppID: "staging-app", UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, tn := range []store.Tenant{
		{ID: "7e4a0000-0000-4000-8000-0000000000b3", CustomerID: DemoAcmeCustomerID, InstanceID: staging, Name: "Staging yard"},
		{ID: "7e4a0000-0000-4000-8000-0000000000b4", CustomerID: DemoAcmeCustomerID, InstanceID: DemoInstanceID, Name: "QA sandbox"},
	} {
		tn.CreatedAt = now
		if err := m.Store.CreateTenant(ctx0, &tn); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []struct {
		instance bool
		target   string
	}{{false, DemoAcmeCustomerID}, {true, DemoInstanceID}} {
		if err := m.Store.PutGrant(ctx0, g.instance, &store.Grant{GranteeID: qa, TargetID: g.target, GrantedAt: now}); err != nil {
			t.Fatal(err)
		}
	}

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "quinn@platform.example")
	var nav []string
	run(t, ctx, waitShows(`[data-testid="role"]`, "qa_admin"),
		chromedp.Evaluate(`[...document.querySelectorAll("nav a")].map(a => a.textContent.trim())`, &nav))
	for _, s := range []string{"Instances", "Grants", "Internal users", "Plans and meters", "Releases", "System workers", "User attributes", "Discrepancies"} {
		if has(nav, s) {
			t.Errorf("qa_admin offered %s: %v", s, nav)
		}
	}
	for _, p := range []string{"/dashboard/instances", "/dashboard/instances/" + DemoInstanceID, "/dashboard/grants", "/dashboard/releases", "/dashboard/catalog"} {
		run(t, ctx, open(m, p, "Not available"), waitShows(`main`, "This page is not part of what your role can see or do."))
	}
	axeCheck(t, ctx, axe, "not available")

	run(t, ctx, open(m, "/dashboard/customers", "Customers"), rowHas("customers-table", "Acme Construction"))
	var table string
	run(t, ctx, textOf(`[data-testid="customers-table"]`, &table))
	if strings.Contains(table, "Globex") || strings.Contains(table, "Initech") {
		t.Errorf("qa_admin sees customers outside its grants: %q", table)
	}
	run(t, ctx, open(m, "/dashboard/customers/"+DemoGlobexCustomerID, "Customer"),
		waitShows(`[data-testid="page-error"]`, "You do not have access to this customer. It is outside the customers or instances you are assigned to."))
	axeCheck(t, ctx, axe, "qa_admin refused customer")

	// tenants: only those on its instance
	run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), rowHas("tenants-table", "QA sandbox"))
	run(t, ctx, textOf(`[data-testid="tenants-table"]`, &table))
	if strings.Contains(table, "Staging yard") || strings.Contains(table, "Data Center North") {
		t.Errorf("qa_admin sees tenants outside its instance: %q", table)
	}
	axeCheck(t, ctx, axe, "qa_admin tenants")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-qa-admin"))
	// it acts within them: deletes a tenant on its instance
	run(t, ctx, clickLabel("Delete tenant QA sandbox"), confirmTyped("tenant", "QA sandbox", "Delete tenant"),
		waitTrue(`!document.body.textContent.includes("QA sandbox")`))
	if _, err := m.Store.Tenant(ctx0, "7e4a0000-0000-4000-8000-0000000000b4"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Errorf("the tenant is still stored: %v", err)
	}
}

// Roles that read the platform sections but do not hold their actions at
// full access are offered no write control there; infra_ops, which holds
// releases and instances but not the catalog, is offered those only.
func TestBrowserConsoleAppPlatformReadOnly(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000c1", "rita@platform.example", "Rita Reader", "reader")
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000c2", "otto@platform.example", "Otto Ops", "infra_ops")
	writes := []string{"New", "Edit", "Delete", "Remove", "Publish", "Withdraw", "Set variable", "Resolve", "Reopen", "Invite",
		"Repair", "Rotate", "Show database URI"}
	offered := func(ctx context.Context) []string { return buttonsLike(ctx, writes...) }

	t.Run("reader", func(t *testing.T) {
		ctx := mustBrowser(t)
		appSignIn(t, ctx, m, "rita@platform.example")
		for _, p := range []struct{ path, heading, table string }{
			{"/dashboard/catalog", "Plans and meters", "plans-table"}, {"/dashboard/releases", "Releases and environment", ""},
			{"/dashboard/internal-users", "Internal users", "internal-users-table"}, {"/dashboard/grants", "Grants", ""},
			{"/dashboard/discrepancies", "Discrepancies", "discrepancies-table"}, {"/dashboard/instances", "Instances", "instances-table"},
			{"/dashboard/instances/" + DemoInstanceID, "Acme production", "connection"},
		} {
			run(t, ctx, open(m, p.path, p.heading), waitTrue(`!document.body.textContent.includes("Loading…")`))
			if p.table != "" {
				run(t, ctx, waitShows(fmt.Sprintf(`[data-testid=%q]`, p.table), ""))
			}
			if w := offered(ctx); len(w) > 0 {
				t.Errorf("reader offered %v on %s", w, p.path)
			}
			axeCheck(t, ctx, axe, "reader "+p.path)
		}
		run(t, ctx, open(m, "/dashboard/attributes", "Not available"))
	})
	t.Run("infra_ops", func(t *testing.T) {
		ctx := mustBrowser(t)
		appSignIn(t, ctx, m, "otto@platform.example")
		run(t, ctx, open(m, "/dashboard/instances/"+DemoInstanceID, "Acme production"), waitShows(`[data-testid="connection"]`, ""))
		bs, _ := buttons(ctx)
		for _, b := range []string{"Edit instance", "Delete this instance", "Repair connection", "Rotate client id", "Show database URI"} {
			if !has(bs, b) {
				t.Errorf("infra_ops not offered %q: %v", b, bs)
			}
		}
		run(t, ctx, open(m, "/dashboard/releases", "Releases and environment"), waitShows(`main`, "New release"))
		run(t, ctx, open(m, "/dashboard/catalog", "Not available"), open(m, "/dashboard/internal-users", "Not available"))

		// infra_ops triggers a migration: it reaches the tenant from the
		// instance it runs on and sees its migrations only (D-tenant-reads)
		const tenantID = "7e4a0000-0000-4000-8000-0000000000c3"
		ctx0 := context.Background()
		if err := m.Store.CreateTenant(ctx0, &store.Tenant{ID: tenantID, CustomerID: DemoAcmeCustomerID, InstanceID: DemoInstanceID,
			Name: "Ops yard", CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}); err != nil {
			t.Fatal(err)
		}
		run(t, ctx, open(m, "/dashboard/instances/"+DemoInstanceID, "Acme production"), rowHas("tenants-on-this-instance-table", "Ops yard"))
		axeCheck(t, ctx, axe, "infra_ops instance with tenants")
		run(t, ctx, clickText("Ops yard"), waitShows(`h1`, "Ops yard"), waitShows(`main`, "Target version"))
		var tabs string
		run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].map(e => e.textContent).join()`, &tabs))
		if tabs != "Migrations" {
			t.Errorf("infra_ops offered the tabs %q on a tenant, want Migrations only", tabs)
		}
		run(t, ctx, fill("Target version", "2026.12.1"), press("Trigger migration"), rowHas("migrations-table", "2026.12.1", "requested"))
		axeCheck(t, ctx, axe, "infra_ops tenant migrations")
		if w := offered(ctx); len(w) > 0 {
			t.Errorf("infra_ops offered %v on a tenant", w)
		}
		ms, err := m.Store.TenantMigrations(ctx0, tenantID)
		if err != nil || len(ms) != 1 || ms[0].TargetVersion != "2026.12.1" {
			t.Errorf("stored migrations: %+v %v", ms, err)
		}
		run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), rowHas("tenants-table", "Ops yard"))
	})
}

// loadProbe is evaluated before the app's own scripts on every load: it
// notes each GraphQL operation the app sends, and the time (since the
// navigation started) at which the page's main content first appears.
const loadProbe = `
window.__ops = [];
const fetch0 = window.fetch;
window.fetch = (u, o) => {
  if (String(u).includes("/graphql")) {
    try { window.__ops.push(JSON.parse(o.body).operationName || "?"); } catch { window.__ops.push("?"); }
  }
  return fetch0(u, o);
};
new MutationObserver((_, obs) => {
  if (document.querySelector("main table, main [data-testid=empty]")) {
    window.__shown = performance.now();
    obs.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
`

// The GraphQL operations each page of the dashboard sends on a full load
// (a reload, or a link opened in a new tab), and the time from the start of
// the navigation to its first rendered table, as docs/benchmarks.md
// reports them ("Console app"). Each page must load with at most 4
// operations: me, focus, and one or two of its own.
func TestBrowserConsoleAppLoad(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(loadProbe).Do(ctx)
		return err
	}))
	pages := []struct{ path, heading string }{
		{"/dashboard/customers", "Customers"}, {"/dashboard/customers/" + DemoAcmeCustomerID, "Acme Construction"},
		{"/dashboard/tenants", "Tenants"}, {"/dashboard/instances", "Instances"}, {"/dashboard/instances/" + DemoInstanceID, "Acme production"},
		{"/dashboard/grants", "Grants"}, {"/dashboard/usage", "Usage"}, {"/dashboard/invoices", "Invoices"}, {"/dashboard/audit", "Audit log"},
		{"/dashboard/emails", "E-mail log"}, {"/dashboard/internal-users", "Internal users"}, {"/dashboard/catalog", "Plans and meters"},
		{"/dashboard/releases", "Releases and environment"}, {"/dashboard/workers", "System workers"},
		{"/dashboard/attributes", "User attributes"}, {"/dashboard/discrepancies", "Discrepancies"},
	}
	for _, p := range pages {
		var ops []string
		var shown, interactive float64
		run(t, ctx, open(m, p.path, p.heading), waitTrue(`window.__shown !== undefined`), waitTrue(`!document.body.textContent.includes("Loading…")`),
			chromedp.Evaluate(`window.__ops`, &ops), chromedp.Evaluate(`window.__shown`, &shown),
			chromedp.Evaluate(`performance.getEntriesByType("navigation")[0].domInteractive`, &interactive))
		t.Logf("| `%s` | %d | %s | %.0f | %.0f |", strings.TrimPrefix(p.path, "/dashboard"), len(ops), strings.Join(ops, ", "), interactive, shown)
		if len(ops) > 4 {
			t.Errorf("%s sends %d GraphQL operations on load: %v", p.path, len(ops), ops)
		}
	}
}

// finance_admin, an internal role with no customer of its own, reaches a
// customer's billing from Customers, issues a credit and reads the amounts;
// it is offered none of the customer's tenants, users, instances or
// sign-in settings, and its plans and meters page offers writes.
func TestBrowserConsoleAppFinanceAdmin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx0 := context.Background()
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000c4", "fiona@platform.example", "Fiona Finance", "finance_admin")
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "fiona@platform.example")
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=billing&view=credits", "Acme Construction"),
		waitShows(`[data-testid="empty"]`, "No credits"))
	var tabs []string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].map(t => t.textContent.trim())`, &tabs))
	for _, tab := range []string{"Tenants", "Users", "Instances", "Sign-in", "Settings"} {
		if has(tabs, tab) {
			t.Errorf("finance_admin offered the customer's %s tab: %v", tab, tabs)
		}
	}
	run(t, ctx, clickText("New credit"), fill("Currency", "EUR"), fill("Amount", "30"), fill("Reason", "Goodwill"),
		press("Issue credit"), waitGone(`[role="dialog"]`), rowHas("credits-table", "€30.00", "Goodwill"))
	axeCheck(t, ctx, axe, "finance_admin credits")
	credits, _, err := m.Store.Credits(ctx0, store.BillingQuery{Customers: authz.Filter{All: true}, CustomerID: DemoAcmeCustomerID, Limit: 10})
	if err != nil || len(credits) != 1 || credits[0].AmountCents != 3000 {
		t.Fatalf("credits: %+v %v", credits, err)
	}
	run(t, ctx, clickText("Payments"), waitShows(`[data-testid="payments-table"]`, "€"))
	run(t, ctx, open(m, "/dashboard/catalog", "Plans and meters"), waitShows(`main`, "New plan"))
	run(t, ctx, open(m, "/dashboard/instances", "Not available"))
}
