package main

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// The owner connects a directory in the console app: the tenant URL, a new
// token shown once, its last use listed once the directory used it, and
// revoking it, after which the directory is refused. A member is offered no
// directory tab.
//
// spec: D-scim
func TestBrowserConsoleAppDirectoryTokens(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=directory", "Acme Construction"), waitShows(`[data-testid="scim-url"]`, m.Config.ConsoleURL+"/scim/v2"),
		waitShows(`main`, "No tokens."))
	axeCheck(t, ctx, axe, "directory tokens")

	var token string
	run(t, ctx, clickText("New token"), fill("Name", "Entra ID"), press("Create token"),
		waitShows(`[data-testid="secret"]`, "scim_"), textOf(`[data-testid="secret"]`, &token))
	axeCheck(t, ctx, axe, "SCIM token shown once")
	run(t, ctx, press("Done"), rowHas("scim-tokens-table", "Entra ID", "live"))

	if code, body := scimCall(t, m, token, http.MethodGet, "/Users?count=1", nil); code != 200 {
		t.Fatalf("the token shown = %d %v", code, body)
	}
	var again bool
	run(t, ctx, chromedp.Reload(), rowHas("scim-tokens-table", "Entra ID", "UTC", "live"),
		chromedp.Evaluate(`document.querySelector('[data-testid="secret"]') !== null`, &again))
	if again {
		t.Error("the token is shown again")
	}
	run(t, ctx, clickLabel("Revoke token Entra ID"), fill("Type the token name, Entra ID, to confirm", "Entra ID"), press("Revoke token"),
		rowHas("scim-tokens-table", "Entra ID", "revoked"))
	code, body := scimCall(t, m, token, http.MethodGet, "/Users", nil)
	wantSCIMError(t, "the revoked token", code, body, 401, "")

	member := mustBrowser(t)
	appSignIn(t, member, m, "bob@acme.example")
	var offered bool
	// the portal's home: the customer's page (its usage is the sidebar's section)
	run(t, member, open(m, "/portal", "Acme Construction"), waitShows(`main`, "Organization"), waitShows(`nav`, "Usage"),
		chromedp.Evaluate(`[...document.querySelectorAll('[role="tab"]')].some(t => t.textContent.trim() === "Directory")`, &offered))
	if offered {
		t.Error("a member is offered the directory tab")
	}
}

// A platform_admin connects the administrator organization's directory on
// the internal users page; a user it provisions is listed with no role of
// its own (its groups give it one), never shown as holding the first role
// of the list.
//
// spec: D-scim-internal
func TestBrowserConsoleAppInternalDirectory(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	var token string
	run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), waitShows(`main`, "internal users and internal groups"),
		clickText("New token"), fill("Name", "Internal directory"), press("Create token"),
		waitShows(`[data-testid="secret"]`, "scim_"), textOf(`[data-testid="secret"]`, &token),
		press("Done"), rowHas("scim-tokens-table", "Internal directory", "live"))
	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "newcomer@platform.example"})
	if code != http.StatusCreated {
		t.Fatalf("provision = %d %v", code, u)
	}
	var role string
	run(t, ctx, chromedp.Reload(), rowHas("internal-users-table", "newcomer@platform.example"),
		chromedp.Evaluate(`document.querySelector('[aria-label="Role of newcomer@platform.example"]').selectedOptions[0].textContent`, &role))
	if role != "none (its groups' roles)" {
		t.Fatalf("the provisioned user's role shows %q", role)
	}
	axeCheck(t, ctx, axe, "internal users with the directory")
}
