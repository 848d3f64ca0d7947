package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The console app's users tables per role in Chromium (D-row-menu,
// D-role-change-confirm, D-refusal-reasons, D-account-frame): readable at
// 1280 px without sideways scrolling and as cards at 390 px, one row menu
// driven from the keyboard, role changes that save only once confirmed
// (typed where they raise privileges), the owner's Suspend offered to
// platform_admin only, refusals in their own words, and the account page's
// way back, sign-out and named, confirmed passkeys. axe-core on every new
// state at both widths.

// openRowMenu clicks the row menu button of the row named name, brought
// to the middle of the screen first (a menu whose button is out of view is
// hidden with it).
func openRowMenu(name string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => {
	  const b = document.querySelector('button[aria-label=%q]');
	  if (!b) return false;
	  b.scrollIntoView({block: "center"});
	  b.click();
	  return true;
	})()`, "Actions for "+name))
}

// rowAction opens the row menu of the row named name and chooses action.
func rowAction(name, action string) chromedp.Tasks {
	return chromedp.Tasks{
		openRowMenu(name),
		waitTrue(fmt.Sprintf(`(() => {
		  const i = [...document.querySelectorAll('[role="menuitem"]')].find(i => i.getClientRects().length > 0 && i.textContent.trim() === %q);
		  if (!i) return false;
		  i.click();
		  return true;
		})()`, action)),
	}
}

// pressEnter presses Enter as a keyboard does on a focused button: a key
// down and up (chromedp's KeyEvent adds a separate character event, which
// clicks a button whose key down was already handled).
func pressEnter() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for _, typ := range []input.KeyType{input.KeyDown, input.KeyUp} {
			if err := input.DispatchKeyEvent(typ).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}

// menuItems lists the actions of the open row menu, once it shows them.
func menuItems(out *[]string) chromedp.Tasks {
	return chromedp.Tasks{
		waitTrue(`[...document.querySelectorAll('[role="menuitem"]')].some(i => i.getClientRects().length > 0)`),
		chromedp.Evaluate(`[...document.querySelectorAll('[role="menuitem"]')].filter(i => i.getClientRects().length > 0).map(i => i.textContent.trim())`, out),
	}
}

// noSidewaysScroll reports whether the page and the table fit their width.
func noSidewaysScroll(table string, fits *bool) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`(() => {
	  const d = document.documentElement, t = document.querySelector('[data-testid=%q]');
	  return d.scrollWidth <= d.clientWidth && !!t && t.scrollWidth <= t.clientWidth &&
	    [...t.querySelectorAll('.mantine-Badge-label')].every(b => b.scrollWidth <= b.clientWidth);
	})()`, table), fits)
}

// selectValue waits until the select named label shows value.
func selectValue(label, value string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`document.querySelector('select[aria-label=%q]')?.value === %q`, label, value))
}

// spec: R5.7-matrix
func TestBrowserConsoleAppUsersTables(t *testing.T) {
	t.Parallel()
	// a passkey needs the provider at a host name; the role changes here
	// are dangerous actions whose step-up has tests of its own
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.IssuerURL = strings.Replace(m.Config.IssuerURL, "127.0.0.1", "localhost", 1)
		m.Config.StepUpMaxAge = 0
	})
	axe := axeSource(t)
	mustConsoleUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b1", DemoAcmeOrgID, "adam@acme.example", "Adam Admin", "admin", DemoAcmeCustomerID)
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b2", "rita@platform.example", "Rita Reader", "reader")
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b3", "nick@platform.example", "Nick New", "reader")
	admin := consoleToken(t, m, "admin@platform.example")
	code, inst := adminCall(t, m, admin, http.MethodPost, "/instances", map[string]any{"customerId": DemoGlobexCustomerID,
		"name": "Globex staging", "url": "https://staging.globex.example"})
	if code != http.StatusCreated {
		t.Fatalf("instance = %d %v", code, inst)
	}

	// The subtests share the platform and run in order: the roles they
	// change are the next one's starting point.
	t.Run("PlatformAdmin", func(t *testing.T) {
		ctx := mustBrowser(t)
		appSignIn(t, ctx, m, "admin@platform.example")
		var fits bool
		users := "/dashboard/customers/" + DemoAcmeCustomerID + "?tab=users"
		run(t, ctx, chromedp.EmulateViewport(1280, 800), open(m, users, "Acme Construction"),
			rowHas("users-table", "bob@acme.example", "active"), noSidewaysScroll("users-table", &fits))
		if !fits {
			t.Error("the users table scrolls sideways at 1280 px, or a badge is cut")
		}
		axeCheck(t, ctx, axe, "customer users at 1280 px")
		_ = chromedp.Run(ctx, shot(t, ctx, "app-users-1280"))

		// the row menu from the keyboard: Enter opens it, ArrowDown moves
		// into it, Escape closes it and gives the focus back
		owner := `button[aria-label="Actions for alice@acme.example"]`
		var items []string
		var expanded, focused string
		run(t, ctx, chromedp.Focus(owner, chromedp.ByQuery), pressEnter(), menuItems(&items),
			chromedp.AttributeValue(owner, "aria-haspopup", &expanded, nil))
		if expanded != "menu" {
			t.Errorf("the row menu's button: aria-haspopup=%q", expanded)
		}
		// platform_admin may suspend the owner (D-owner-protect)
		if strings.Join(items, ",") != "Suspend,Move to another customer" {
			t.Errorf("the owner's menu for platform_admin: %v", items)
		}
		axeCheck(t, ctx, axe, "row menu open")
		run(t, ctx, chromedp.KeyEvent(kb.ArrowDown),
			waitTrue(`document.activeElement?.getAttribute("role") === "menuitem"`),
			chromedp.KeyEvent(kb.Escape),
			waitTrue(`![...document.querySelectorAll('[role="menuitem"]')].some(i => i.getClientRects().length > 0)`),
			chromedp.Evaluate(`document.activeElement?.getAttribute("aria-label") ?? ""`, &focused))
		if focused != "Actions for alice@acme.example" {
			t.Errorf("Escape left the focus on %q", focused)
		}
		run(t, ctx, openRowMenu("bob@acme.example"), menuItems(&items), chromedp.KeyEvent(kb.Escape))
		if strings.Join(items, ",") != "Suspend,Make owner,Move to another customer,Delete" {
			t.Errorf("bob's menu for platform_admin: %v", items)
		}

		// a role change: cancelled, the select goes back; confirmed with
		// the address typed, as member to admin raises privileges
		var dialog string
		run(t, ctx, choose("Role of bob@acme.example", "admin"), waitShows(`[role="dialog"]`, "bob@acme.example changes from member to admin"),
			textOf(`[role="dialog"]`, &dialog))
		if !strings.Contains(dialog, "Type the user name, bob@acme.example, to confirm") {
			t.Errorf("raising bob to admin is not typed: %q", dialog)
		}
		axeCheck(t, ctx, axe, "role change, typed")
		run(t, ctx, press("Cancel"), waitGone(`[role="dialog"]`), selectValue("Role of bob@acme.example", "member"),
			chromedp.Reload(), selectValue("Role of bob@acme.example", "member"))
		run(t, ctx, choose("Role of bob@acme.example", "admin"),
			confirmTyped("user", "bob@acme.example", "Change to admin"),
			chromedp.Reload(), selectValue("Role of bob@acme.example", "admin"))

		// internal users: to platform_admin is typed; the page says it
		run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), rowHas("internal-users-table", "nick@platform.example"),
			noSidewaysScroll("internal-users-table", &fits))
		if !fits {
			t.Error("the internal users table scrolls sideways at 1280 px")
		}
		run(t, ctx, choose("Role of nick@platform.example", "platform_admin"),
			waitShows(`[role="dialog"]`, "nick@platform.example changes from reader to platform_admin"))
		axeCheck(t, ctx, axe, "internal role change")
		run(t, ctx, confirmTyped("internal user", "nick@platform.example", "Change to platform_admin"),
			waitShows(`[data-testid="done"]`, "nick@platform.example is now platform_admin"))

		// the real refusal: an instance without a database URI says so
		var refusal string
		run(t, ctx, open(m, "/dashboard/instances/"+inst["id"].(string), "Globex staging"), clickText("Show database URI"),
			waitShows(`[data-testid="form-error"]`, "database URI"), textOf(`[data-testid="form-error"]`, &refusal))
		if !strings.Contains(refusal, "No database URI is recorded for this instance") || strings.Contains(refusal, "focused on") {
			t.Errorf("the refusal: %q", refusal)
		}

		// a duplicate customer name is refused at the name's field; no
		// free-text domains in the form
		var domainsField bool
		run(t, ctx, open(m, "/dashboard/customers", "Customers"), clickText("New customer"),
			waitShows(`[data-testid="domains-later"]`, "Domains tab"),
			chromedp.Evaluate(`[...document.querySelectorAll('[role="dialog"] label')].some(l => l.textContent.includes("domains"))`, &domainsField),
			fill("Name", "globex engineering"), clickText("Create customer"), fieldError("Name", "is another customer's"))
		if domainsField {
			t.Error("the customer form still has a free-text domains field")
		}
		axeCheck(t, ctx, axe, "duplicate customer name")

		// 390 px: cards, nothing wider than the screen
		var cards int
		run(t, ctx, chromedp.EmulateViewport(390, 844), open(m, users, "Acme Construction"),
			waitTrue(`document.querySelectorAll('[data-testid="users-table"] [data-testid="card-row"]').length > 0`),
			rowHas("users-table", "bob@acme.example", "admin"),
			chromedp.Evaluate(`document.querySelectorAll('[data-testid="users-table"] [data-testid="card-row"]').length`, &cards),
			noSidewaysScroll("users-table", &fits))
		if cards < 3 || !fits {
			t.Errorf("390 px: %d cards, fits %t", cards, fits)
		}
		axeCheck(t, ctx, axe, "customer users at 390 px")
		_ = chromedp.Run(ctx, shot(t, ctx, "app-users-390"))
		run(t, ctx, openRowMenu("bob@acme.example"), menuItems(&items))
		axeCheck(t, ctx, axe, "row menu at 390 px")
		run(t, ctx, chromedp.KeyEvent(kb.Escape), chromedp.EmulateViewport(1280, 800))
	})

	t.Run("CustomerAdmin", func(t *testing.T) {
		ctx := mustBrowser(t)
		var auth webauthn.AuthenticatorID
		run(t, ctx, virtualAuthenticator(&auth))
		appSignIn(t, ctx, m, "adam@acme.example")
		var fits, ownerMenu, ownerSelect bool
		var items []string
		run(t, ctx, chromedp.EmulateViewport(1280, 800), open(m, "/portal/users", "Users"),
			rowHas("users-table", "alice@acme.example", "owner"), rowHas("users-table", "bob@acme.example"),
			noSidewaysScroll("users-table", &fits),
			chromedp.Evaluate(`!!document.querySelector('button[aria-label="Actions for alice@acme.example"]')`, &ownerMenu),
			chromedp.Evaluate(`!!document.querySelector('select[aria-label="Role of alice@acme.example"]')`, &ownerSelect))
		if !fits {
			t.Error("the users table scrolls sideways at 1280 px, or a badge is cut")
		}
		// the owner is suspended by platform_admin only: nothing is offered
		// on the owner's row to a customer's admin
		if ownerMenu || ownerSelect {
			t.Errorf("a customer's admin is offered actions on the owner: menu %t, role %t", ownerMenu, ownerSelect)
		}
		axeCheck(t, ctx, axe, "portal users at 1280 px")
		run(t, ctx, openRowMenu("bob@acme.example"), menuItems(&items), chromedp.KeyEvent(kb.Escape))
		if len(items) == 0 || items[0] != "Suspend" || strings.Contains(strings.Join(items, ","), "owner") {
			t.Errorf("bob's menu for a customer's admin: %v", items)
		}

		// admin to member lowers privileges: a plain confirmation
		var typed bool
		run(t, ctx, choose("Role of bob@acme.example", "member"), waitShows(`[role="dialog"]`, "bob@acme.example changes from admin to member"),
			chromedp.Evaluate(`[...document.querySelectorAll('[role="dialog"] label')].some(l => l.textContent.includes("to confirm"))`, &typed))
		if typed {
			t.Error("lowering a role asks for the address typed")
		}
		axeCheck(t, ctx, axe, "role change, plain")
		run(t, ctx, press("Change to member"), waitGone(`[role="dialog"]`), chromedp.Reload(), selectValue("Role of bob@acme.example", "member"))

		run(t, ctx, chromedp.EmulateViewport(390, 844), chromedp.Reload(),
			waitTrue(`document.querySelectorAll('[data-testid="users-table"] [data-testid="card-row"]').length > 0`),
			noSidewaysScroll("users-table", &fits))
		if !fits {
			t.Error("the portal's users are wider than 390 px")
		}
		axeCheck(t, ctx, axe, "portal users at 390 px")
		run(t, ctx, chromedp.EmulateViewport(1280, 800))

		// "Your account": the way back to this page, sign-out, a passkey
		// named without a name given, removed after a confirmation
		var back, list, confirm string
		run(t, ctx, chromedp.Reload(), rowHas("users-table", "bob@acme.example"),
			chromedp.Click(`[data-testid="account-link"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#back-to-console`, chromedp.ByID),
			chromedp.AttributeValue(`#back-to-console`, "href", &back, nil))
		if back != m.Config.ConsoleURL+"/portal/users" {
			t.Errorf("back to the console: %q", back)
		}
		axeCheck(t, ctx, axe, "account page from the console")
		run(t, ctx, chromedp.WaitVisible(`#passkey-name`, chromedp.ByID),
			chromedp.Click(`#passkey-add button[type=submit]`, chromedp.ByQuery),
			waitShows(`#account-notice`, "Your passkey was added"), textOf(`#passkey-list`, &list))
		if !strings.Contains(list, "Passkey") {
			t.Errorf("the passkey added without a name: %q", list)
		}
		run(t, ctx, clickText("Remove Passkey"), chromedp.WaitVisible(`#passkey-remove`, chromedp.ByID),
			textOf(`#passkey-remove-name`, &confirm))
		if !strings.Contains(confirm, "Passkey") {
			t.Errorf("the removal's confirmation: %q", confirm)
		}
		axeCheck(t, ctx, axe, "passkey removal confirmation")
		run(t, ctx, chromedp.Click(`#passkey-keep`, chromedp.ByID), waitShows(`#passkey-list`, "Passkey"),
			clickText("Remove Passkey"), chromedp.WaitVisible(`#passkey-remove`, chromedp.ByID),
			chromedp.Click(`#passkey-remove button`, chromedp.ByQuery), waitShows(`#account-notice`, "Your passkey was removed"),
			waitShows(`#passkey-list`, "No passkeys yet"))
		run(t, ctx, chromedp.EmulateViewport(390, 844))
		axeCheck(t, ctx, axe, "account page at 390 px")
		run(t, ctx, chromedp.EmulateViewport(1280, 800),
			chromedp.Click(`#back-to-console`, chromedp.ByID), rowHas("users-table", "bob@acme.example"))

		// sign-out from the account page ends the session and its grants
		var loc string
		run(t, ctx, chromedp.Click(`[data-testid="account-link"]`, chromedp.ByQuery), chromedp.WaitVisible(`#account-sign-out`, chromedp.ByID),
			chromedp.Click(`#account-sign-out button`, chromedp.ByQuery), chromedp.WaitVisible(`#email`, chromedp.ByID), chromedp.Location(&loc))
		if !strings.HasPrefix(loc, m.Config.ConsoleURL+"/") {
			t.Errorf("after the account page's sign-out: %s", loc)
		}
		run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+"/ui/account"), waitShows(`main`, "Sign in first"))
	})

	t.Run("Reader", func(t *testing.T) {
		ctx := mustBrowser(t)
		appSignIn(t, ctx, m, "rita@platform.example")
		var fits bool
		var menus, selects int
		for _, w := range []int64{1280, 390} {
			// the layout for the width: rows at 1280 px, cards at 390 (the
			// app picks them once it has measured the window)
			layout := `document.querySelectorAll('[data-testid="users-table"] [data-testid="card-row"]').length === 0`
			if w == 390 {
				layout = `document.querySelectorAll('[data-testid="users-table"] [data-testid="card-row"]').length > 0`
			}
			run(t, ctx, chromedp.EmulateViewport(w, 844), open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=users", "Acme Construction"),
				waitShows(`[data-testid="users-table"]`, "alice@acme.example"), waitTrue(layout), noSidewaysScroll("users-table", &fits),
				chromedp.Evaluate(`document.querySelectorAll('[data-testid="row-menu"]').length`, &menus),
				chromedp.Evaluate(`document.querySelectorAll('[data-testid="users-table"] select').length`, &selects))
			if !fits || menus != 0 || selects != 0 {
				t.Errorf("reader at %d px: fits %t, %d row menus, %d role selects", w, fits, menus, selects)
			}
			axeCheck(t, ctx, axe, fmt.Sprintf("users for a reader at %d px", w))
		}
		run(t, ctx, chromedp.EmulateViewport(1280, 800))
	})
}
