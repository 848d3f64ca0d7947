package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The console app's navigation in Chromium: every list's search and
// filters in the URL (kept over a reload and Back), pickers that search the
// server (a customer beyond the first hundred receives a tenant, an
// instance and a transfer), tab changes as history entries, and the dark
// colour scheme, axe-clean at 1280 and 390 px.

// searchFor types text into the list's search box and waits until the
// URL holds it (the box changes the URL once typing pauses).
func searchFor(label, text, param string) chromedp.Tasks {
	return chromedp.Tasks{fill(label, text),
		waitTrue(fmt.Sprintf(`new URLSearchParams(location.search).get(%q) === %q`, param, text))}
}

// boxHolds waits until the field labelled label shows value.
func boxHolds(label, value string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.offsetParent !== null && l.textContent.replace(/\s*\*$/, "").trim() === %q);
	  return !!l && document.getElementById(l.htmlFor)?.value === %q; })()`, label, value))
}

// clickTab clicks the tab named name (a section of the sidebar may have
// the same name).
func clickTab(name string) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`//*[@role="tab"][normalize-space(.)=%q]`, name), chromedp.BySearch)
}

// tabSelected waits until the tab named name is the selected one.
func tabSelected(name string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`[...document.querySelectorAll('[role="tab"]')].some(t => t.getAttribute("aria-selected") === "true" && t.textContent.trim() === %q)`, name))
}

// mustManyCustomers adds n customers named "Fleet customer 001"… and,
// last, "Zephyr Freight", which sorts after all of them and the demo's:
// no first page of a hundred holds it.
func mustManyCustomers(t *testing.T, m *Main, n int) (lastID string) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("f1ee7000-0000-4000-8000-%012d", i)
		name := fmt.Sprintf("Fleet customer %03d", i)
		if i == n {
			name = "Zephyr Freight"
		}
		if err := m.Store.CreateOrganization(ctx, &platform.Organization{ID: "org-" + id, Name: name, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := m.Store.CreateCustomer(ctx, &platform.Customer{ID: id, Name: name, OrgID: "org-" + id, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		lastID = id
	}
	return lastID
}

// platform_admin searches every list; the search and the filters are in
// the URL, and a reload and Back (from a row's page) keep them.
// spec: R5.7-search
func TestBrowserConsoleAppListSearch(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")

	// tenants: the search narrows the list on the server; Back from a
	// tenant's page and a reload keep it
	run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), rowHas("tenants-table", "Data Center North"), rowHas("tenants-table", "Harbor Campus"),
		searchFor("Search tenants", "harbor", "q"), noRowHas("tenants-table", "Data Center North"), rowHas("tenants-table", "Harbor Campus"))
	axeCheck(t, ctx, axe, "tenants searched")
	run(t, ctx, clickText("Harbor Campus"), waitShows(`#page-title`, "Harbor Campus"), chromedp.NavigateBack(),
		waitShows(`#page-title`, "Tenants"), boxHolds("Search tenants", "harbor"), rowHas("tenants-table", "Harbor Campus"),
		noRowHas("tenants-table", "Data Center North"))
	run(t, ctx, chromedp.Reload(), boxHolds("Search tenants", "harbor"), rowHas("tenants-table", "Harbor Campus"),
		noRowHas("tenants-table", "Data Center North"))
	// a search that matches nothing says so; clearing it lists everything
	run(t, ctx, searchFor("Search tenants", "nothing-like-this", "q"), waitShows(`main`, "No tenant matches the search and filters."),
		fill("Search tenants", ""), waitTrue(`!location.search.includes("q=")`), rowHas("tenants-table", "Data Center North"))
	// the customer filter is a server-searched select, in the URL, named after a reload
	run(t, ctx, pick("Customer", "glob", "Globex Engineering"), waitTrue(`location.search.includes("customer=`+DemoGlobexCustomerID+`")`),
		noRowHas("tenants-table", "Harbor Campus"), chromedp.Reload(), boxHolds("Customer", "Globex Engineering"),
		rowHas("tenants-table", "Data Center North"), noRowHas("tenants-table", "Harbor Campus"))
	axeCheck(t, ctx, axe, "tenants filtered by customer")

	// instances
	run(t, ctx, open(m, "/dashboard/instances", "Instances"), rowHas("instances-table", "Acme production"),
		searchFor("Search instances", "no such instance", "q"), waitShows(`main`, "No instance matches"),
		chromedp.Reload(), boxHolds("Search instances", "no such instance"), waitShows(`main`, "No instance matches"),
		searchFor("Search instances", "acme", "q"), rowHas("instances-table", "Acme production"))

	// internal users, by part of the address
	run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), rowHas("internal-users-table", "admin@platform.example"),
		searchFor("Search internal users by name or e-mail", "nobody-here", "q"), waitShows(`main`, "No user matches “nobody-here”."),
		searchFor("Search internal users by name or e-mail", "admin@", "q"), rowHas("internal-users-table", "admin@platform.example"))
	axeCheck(t, ctx, axe, "internal users searched")

	// a customer's users, in the customer's Users tab: the search stays with the tab
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=users", "Acme Construction"),
		rowHas("users-table", "alice@acme.example"), rowHas("users-table", "bob@acme.example"),
		searchFor("Search users by name or e-mail", "bob", "q"), noRowHas("users-table", "alice@acme.example"),
		chromedp.Reload(), boxHolds("Search users by name or e-mail", "bob"), rowHas("users-table", "bob@acme.example"),
		noRowHas("users-table", "alice@acme.example"))
	axeCheck(t, ctx, axe, "customer users searched")

	// the audit log names actors by address and filters by it, in the URL
	run(t, ctx, open(m, "/dashboard/audit", "Audit log"), searchFor("Actor e-mail", "admin@platform", "actor"),
		waitShows(`[data-testid="audit-events-table"]`, "admin@platform.example"), chromedp.Reload(),
		boxHolds("Actor e-mail", "admin@platform"), waitShows(`[data-testid="audit-events-table"]`, "admin@platform.example"))
	var actors string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[data-testid="audit-events-table"] tbody tr td:nth-child(4)')].map(td => td.innerText).join("|")`, &actors))
	if strings.Contains(actors, "-0000-") || !strings.Contains(actors, "admin@platform.example") {
		t.Errorf("the audit log's actors are not named by address: %q", actors)
	}
}

// A customer past the first hundred is found by the pickers as one types
// and receives a tenant, an instance and a transfer (platform_admin).
// spec: R5.7-search
func TestBrowserConsoleAppPickerBeyondFirstPage(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.StepUpMaxAge = 0 })
	last := mustManyCustomers(t, m, 105)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")

	// a new tenant of the 105th customer
	run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), rowHas("tenants-table", "Harbor Campus"), clickText("New tenant"),
		pick("Customer", "zeph", "Zephyr Freight"), fill("Name", "Zephyr depot"))
	axeCheck(t, ctx, axe, "new tenant, customer searched")
	run(t, ctx, clickText("Create tenant"), waitGone(`[role="dialog"]`), rowHas("tenants-table", "Zephyr depot", "Zephyr Freight"))

	// a new instance of it
	run(t, ctx, open(m, "/dashboard/instances", "Instances"), rowHas("instances-table", "Acme production"), clickText("New instance"),
		pick("Customer", "Zephyr", "Zephyr Freight"), fill("Name", "Zephyr production"), fill("URL", "https://zephyr.example"),
		clickText("Create instance"), waitGone(`[role="dialog"]`), rowHas("instances-table", "Zephyr production", "Zephyr Freight"))

	// Harbor Campus moves to it, onto its instance (picked among the customer's)
	run(t, ctx, open(m, "/dashboard/tenants/"+DemoAcmeTenantID, "Harbor Campus"), clickText("Transfer to another customer"),
		pick("Destination customer", "zeph", "Zephyr Freight"), pick("Destination instance", "prod", "Zephyr production"))
	axeCheck(t, ctx, axe, "transfer, customer and instance searched")
	run(t, ctx, fill("Type the tenant name, Harbor Campus, to confirm", "Harbor Campus"), press("Transfer tenant"), waitGone(`[role="dialog"]`),
		waitShows(`[data-testid="tenant-customer"]`, "Zephyr Freight"))
	tn, err := m.Store.Tenant(context.Background(), DemoAcmeTenantID)
	if err != nil || tn.CustomerID != last || tn.InstanceID == "" {
		t.Fatalf("tenant after the transfer: %+v %v", tn, err)
	}
	// the picker never offers the customer the tenant is on
	run(t, ctx, clickText("Transfer to another customer"), fill("Destination customer", "Zephyr"),
		waitTrue(`[...document.querySelectorAll('[role="option"]')].length === 0 && document.querySelector('[role="dialog"]').textContent.includes("Nothing matches")`))
}

// Tab changes are history entries: Back returns to the tab before, Forward
// to the one after, on a customer's page and a tenant's.
func TestBrowserConsoleAppTabHistory(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID, "Acme Construction"), tabSelected("Tenants"),
		clickTab("Users"), tabSelected("Users"), rowHas("users-table", "alice@acme.example"),
		searchFor("Search users by name or e-mail", "bob", "q"),
		clickTab("Instances"), tabSelected("Instances"), waitTrue(`location.search === "?tab=instances"`),
		chromedp.NavigateBack(), tabSelected("Users"), waitTrue(`location.search.includes("tab=users")`),
		// the search belongs to the tab it was typed in
		boxHolds("Search users by name or e-mail", "bob"), noRowHas("users-table", "alice@acme.example"),
		chromedp.NavigateBack(), tabSelected("Tenants"), waitTrue(`location.search === ""`),
		chromedp.NavigateForward(), tabSelected("Users"))
	run(t, ctx, open(m, "/dashboard/tenants/"+DemoAcmeTenantID, "Harbor Campus"), clickTab("Settings"), tabSelected("Settings"),
		clickTab("Migrations"), tabSelected("Migrations"), chromedp.NavigateBack(), tabSelected("Settings"))
}

// countIs waits until the overview's count of key reads n.
func countIs(key string, n int) chromedp.Action {
	return waitTrue(fmt.Sprintf(`document.querySelector('[data-testid="count-%s"] p:last-child')?.innerText.trim() === %q`, key, fmt.Sprint(n)))
}

// The dashboard's home counts what the role may see and shows the recent
// activity, not the sidebar again (platform_admin: all 107 customers, an
// invitation pending and a user locked); the portal's home is the
// customer's page with its counts, and its tabs repeat no section of the
// sidebar (an old link to one opens the section).
// spec: R5.7-and
func TestBrowserConsoleAppOverview(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	mustManyCustomers(t, m, 105)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "petra@acme.example", "name": "Petra"}); code != http.StatusCreated {
		t.Fatalf("invite = %d %v", code, body)
	}
	if _, err := m.Store.RecordLoginFailure(context.Background(), "2b7e4d10-0000-4000-8000-000000000003", 1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	want, err := m.Store.Counts(context.Background(), authz.Filter{All: true}, time.Now())
	if err != nil || want.Customers < 107 || want.PendingInvitations < 1 || want.LockedUsers < 1 {
		t.Fatalf("counts %+v %v", want, err)
	}
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard", "Welcome"), countIs("customers", want.Customers), countIs("tenants", want.Tenants),
		countIs("users", want.Users), countIs("pendingInvitations", want.PendingInvitations), countIs("lockedUsers", want.LockedUsers),
		rowHas("recent-activity-table", "admin@platform.example"))
	var links []string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll("main a")].map(a => a.textContent.trim())`, &links))
	for _, l := range links {
		if l == "Releases" || l == "Plans and meters" {
			t.Errorf("the home repeats the sidebar: %q", links)
		}
	}
	axeCheck(t, ctx, axe, "dashboard overview")
	run(t, ctx, chromedp.EmulateViewport(390, 844))
	axeCheck(t, ctx, axe, "dashboard overview at 390 px")
	// the count opens its list
	run(t, ctx, chromedp.EmulateViewport(1280, 800), waitTrue(`(() => { const a = document.querySelector('[data-testid="count-customers"] a'); if (a) a.click(); return !!a; })()`),
		waitShows(`#page-title`, "Customers"))
}

// The owner's portal home: the customer's page with its counts (no count
// of customers), tabs without the sidebar's sections, and an old link to
// the users tab opens the Users section.
func TestBrowserConsoleAppPortalHome(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal", "Acme Construction"), waitShows(`[data-testid="count-users"]`, ""),
		waitShows(`[data-testid="count-tenants"]`, "1"), rowHas("recent-activity-table", "alice@acme.example"))
	var tabs []string
	var customersTile bool
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].map(t => t.textContent.trim())`, &tabs),
		chromedp.Evaluate(`!!document.querySelector('[data-testid="count-customers"]')`, &customersTile))
	for _, tab := range tabs {
		if tab == "Users" || tab == "Tenants" || tab == "Usage" {
			t.Errorf("the portal's tabs repeat the sidebar: %q", tabs)
		}
	}
	if customersTile || len(tabs) == 0 {
		t.Errorf("portal home: tabs %q, a customers count %v", tabs, customersTile)
	}
	axeCheck(t, ctx, axe, "portal home")
	run(t, ctx, open(m, "/portal?tab=users", "Users"), waitShows(`[data-testid="users-table"]`, "bob@acme.example"),
		waitTrue(`location.pathname === "/portal/users"`))
}
