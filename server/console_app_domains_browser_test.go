package main

import (
	"strings"
	"testing"

	"github.com/platform/platform/internal/domains/dnstest"
)

// The owner proves a domain in the console app (D-verified-domains): the
// record to publish, a verification before it is published that says what
// was looked for, the record published at the DNS server (DNS_SERVER), a
// verification that succeeds and the domain listed verified; then an
// invitation to an address outside the verified domain goes out with the
// app's warning.
//
// spec: D-verified-domains
func TestBrowserConsoleAppDomains(t *testing.T) {
	t.Parallel()
	d := dnstest.Start(t)
	m := mustRunMainWith(t, func(m *Main) { m.Config.DNSServer = d.Addr })
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=domains", "Acme Construction"), waitShows(`main`, "No domains."))
	axeCheck(t, ctx, axe, "domains")

	var value string
	run(t, ctx, clickText("Add domain"), fill("Domain", "Acme-Corp.example"), press("Add domain"),
		rowHas("domains-table", "acme-corp.example", "pending", "_platform-challenge.acme-corp.example"),
		textOf(`[data-testid="domain-value-acme-corp.example"]`, &value))
	if !strings.HasPrefix(value, "platform-domain-verification=") {
		t.Fatalf("record value %q", value)
	}
	run(t, ctx, pressLabel("Verify acme-corp.example"), waitShows(`[data-testid="verify-result"]`, "not verified yet"),
		waitShows(`[data-testid="verify-result"]`, "_platform-challenge.acme-corp.example"))
	axeCheck(t, ctx, axe, "domain not verified")

	d.Publish("acme-corp.example", value)
	run(t, ctx, pressLabel("Verify acme-corp.example"), waitShows(`[data-testid="verify-result"]`, "acme-corp.example is verified"),
		rowHas("domains-table", "acme-corp.example", "verified (dns)"))

	run(t, ctx, clickText("Users"), clickText("Invite user"), fill("E-mail", "contractor@elsewhere.example"),
		fill("Name", "Con Tractor"), press("Send invitation"),
		waitShows(`[data-testid="invite-warning"]`, "outside the customer's verified domains (acme-corp.example)"))
	axeCheck(t, ctx, axe, "invitation warning")
	run(t, ctx, press("Close"), waitShows(`[data-testid="users-table"]`, "contractor@elsewhere.example"))
}
