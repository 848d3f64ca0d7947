package main

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// The owner makes an initial access token on the customer's Applications
// tab (shown once), a client registers itself with it, and the tab lists
// the client marked "registered" and the token's use; revoking the token
// refuses the next registration. Axe-clean.
//
// spec: D-dynamic-registration
func TestBrowserConsoleAppRegistration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=applications", "Acme Construction"), waitShows(`main`, "No application registered itself yet."))
	axeCheck(t, ctx, axe, "applications")

	var token string
	run(t, ctx, clickText("New registration token"), fill("Name", "CLI tools"), fill("Redirect hosts", "127.0.0.1"),
		press("Create token"), waitShows(`[data-testid="secret"]`, "iat_"), textOf(`[data-testid="secret"]`, &token))
	axeCheck(t, ctx, axe, "registration token shown once")
	run(t, ctx, press("Done"), rowHas("registration-tokens-table", "CLI tools", "0 of 10", "live"))

	endpoint := m.Config.IssuerURL + "/oauth/v2/register"
	code, reg := regCall(t, http.MethodPost, endpoint, token, map[string]any{"client_name": "Browser CLI",
		"redirect_uris": []string{"http://127.0.0.1:1/cb"}, "token_endpoint_auth_method": "none"})
	if code != http.StatusCreated {
		t.Fatalf("register: %d %v", code, reg)
	}
	run(t, ctx, chromedp.Reload(), rowHas("registered-applications-table", "Browser CLI", "registered", reg["client_id"].(string)),
		rowHas("registration-tokens-table", "CLI tools", "1 of 10"))
	run(t, ctx, clickLabel("Revoke registration token CLI tools"),
		fill("Type the registration token name, CLI tools, to confirm", "CLI tools"), press("Revoke registration token"),
		rowHas("registration-tokens-table", "CLI tools", "revoked"))
	if code, _ := regCall(t, http.MethodPost, endpoint, token, map[string]any{"redirect_uris": []string{"http://127.0.0.1:1/cb"},
		"token_endpoint_auth_method": "none"}); code != http.StatusUnauthorized {
		t.Fatalf("registration with the revoked token: %d", code)
	}
}
