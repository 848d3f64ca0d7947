package main

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/testkit"
)

// The owner turns client ID metadata documents on from the customer's
// Applications tab; a client the provider recorded at its first use is
// listed there by name, document URL and last fetch, and the owner blocks
// it. Axe-clean.
//
// spec: D-client-metadata-documents
func TestBrowserConsoleAppMetadataClients(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=applications", "Acme Construction"), waitShows(`main`, "No client used a metadata document yet."),
		chromedp.Click(`[data-testid="accept-metadata-documents"]`, chromedp.ByQuery),
		waitTrue(`document.querySelector('[data-testid="accept-metadata-documents"]').checked`))
	testkit.Eventually(t, "the setting saved", func() bool {
		on, err := m.Store.CustomerClientMetadataDocuments(t.Context(), DemoAcmeCustomerID)
		return err == nil && on
	})

	clientID := seedMetadataClient(t, m)
	table := "clients-described-by-a-metadata-document-table"
	run(t, ctx, chromedp.Reload(), rowHas(table, "Acme MCP", clientID))
	axeCheck(t, ctx, axe, "metadata document clients")
	run(t, ctx, clickLabel("Block Acme MCP"), rowHas(table, "Acme MCP", "Blocked"))
	testkit.Eventually(t, "the client blocked", func() bool {
		app, err := m.Store.ApplicationByClientID(t.Context(), clientID)
		return err == nil && !app.BlockedAt.IsZero()
	})
}
