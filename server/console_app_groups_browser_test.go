package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// platform_admin makes an internal group bound to account_manager, puts an
// internal user in it and grants it a customer; a customer's owner makes a
// group of its own in the portal and adds a member; a customer role
// without manage_customer_user is offered no groups. axe-core on every page
// and dialog.
//
// pressLabel clicks the button named label (its aria-label) from script,
// wherever the page is scrolled (the sticky header may cover it).
func pressLabel(label string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`(() => { const b = document.querySelector('button[aria-label=%q]'); if (!b) return false; b.click(); return true; })()`, label))
}

// spec: R5.7-matrix
func TestBrowserConsoleAppGroups(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	mustInternalUser(t, m, "5e1f0000-0000-4000-8000-000000000901", "mia@platform.example", "Mia Manager", "reader")

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/internal-groups", "Internal groups"), waitShows(`main`, "No groups"))
	run(t, ctx, clickText("New group"), fill("Name", "EMEA account managers"), fill("Role", "account_manager"))
	axeCheck(t, ctx, axe, "new internal group")
	run(t, ctx, clickText("Create group"), waitGone(`[role="dialog"]`), rowHas("groups-table", "EMEA account managers", "account_manager"))
	axeCheck(t, ctx, axe, "internal groups")
	run(t, ctx, clickText("EMEA account managers"), waitShows(`#page-title`, "EMEA account managers"),
		fill("User id to add to members", "5e1f0000-0000-4000-8000-000000000901"), clickLabel("Add to members"),
		rowHas("members-table", "mia@platform.example"),
		fill("Customer id to grant", DemoGlobexCustomerID), clickLabel("Grant the customer"),
		rowHas("customers-granted-table", DemoGlobexCustomerID))
	// another organization's user is refused, the server's reason shown (D-refusal-reasons)
	run(t, ctx, fill("User id to add to members", "2b7e4d10-0000-4000-8000-000000000002"), pressLabel("Add to members"),
		waitShows(`[data-testid="form-error"]`, "User not found in the group's organization"), noRowHas("members-table", "alice@acme.example"))
	axeCheck(t, ctx, axe, "internal group")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-internal-group"))

	owner := mustBrowser(t)
	appSignIn(t, owner, m, "alice@acme.example")
	run(t, owner, open(m, "/portal/groups", "Groups"), clickText("New group"), fill("Name", "Site leads"), fill("Role", "admin"),
		clickText("Create group"), waitGone(`[role="dialog"]`), rowHas("groups-table", "Site leads", "admin"),
		clickText("Site leads"), waitShows(`#page-title`, "Site leads"),
		fill("User id to add to members", "2b7e4d10-0000-4000-8000-000000000003"), clickLabel("Add to members"),
		rowHas("members-table", "bob@acme.example"))
	axeCheck(t, owner, axe, "customer group")

	viewer := mustBrowser(t)
	mustConsoleUser(t, m, "5e1f0000-0000-4000-8000-000000000902", DemoAcmeOrgID, "vera@acme.example", "Vera Viewer", "viewer", DemoAcmeCustomerID)
	appSignIn(t, viewer, m, "vera@acme.example")
	run(t, viewer, open(m, "/portal/groups", "Not available"))
}
