package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Signing out of the console app ends the tab's access token, not only the
// tab's copy of it: a token taken before (by a script that ran in the page,
// a shared machine's memory, a copied request) is refused at the console's
// REST API and GraphQL once the user pressed Sign out, instead of working
// to its expiry (15 minutes). The provider's session ends too.
//
// attack: token-outlives-sign-out
func TestAttackBrowserTokenOutlivesSignOut(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	token := storedToken(t, ctx, "access_token")
	if token == "" {
		t.Fatal("the app keeps no access token")
	}
	gql := map[string]any{"query": "{ me { userId role } }"}
	if a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", token, gql); a.status != 200 {
		t.Fatalf("the token before sign-out = %d %v", a.status, a.body)
	}

	run(t, ctx, clickText("Sign out"), chromedp.WaitVisible(`#email`, chromedp.ByID))
	var loc string
	run(t, ctx, chromedp.Location(&loc))
	if !strings.HasPrefix(loc, m.Config.ConsoleURL+"/") {
		t.Fatalf("sign-out ended at %s, want the console's sign-in page", loc)
	}
	if left := storedToken(t, ctx, "access_token"); left != "" {
		t.Error("the tab still holds the access token")
	}
	wantRefused(t, "console /graphql after sign-out", call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", token, gql))
	wantRefused(t, "console /auth/me after sign-out", call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", token, nil))
	wantRefused(t, "console /me/permissions after sign-out", call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/me/permissions", token, nil))

	// The provider's session ended too: the app no longer signs in silently.
	run(t, ctx, chromedp.Navigate(m.Config.ConsoleURL+"/dashboard"), chromedp.WaitVisible(`#email`, chromedp.ByID))
}

// The GraphQL playground keeps nothing of what was run in the browser
// beyond the tab: GraphiQL's history and editors (operations with their
// variables: an identity provider's client secret, a database URI) would
// otherwise stay in localStorage after sign-out, for whoever next uses the
// browser profile, and be read by any page of the console's origin.
//
// attack: playground-history-at-rest
func TestAttackBrowserPlaygroundHistoryAtRest(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	const marker = "kept-secret-4f1c9a"
	query := "query Example { me { email } } # " + marker
	var stored string
	run(t, ctx,
		chromedp.Navigate(m.Config.ConsoleURL+"/graphql"),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, "admin@platform.example", chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword),
		chromedp.WaitVisible(`.graphiql-query-editor .CodeMirror`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.setValue(`+jsString(query)+`)`, nil),
		chromedp.Click(`.graphiql-execute-button`, chromedp.ByQuery),
		waitContains(`.graphiql-response`, "admin@platform.example"),
		// GraphiQL has kept the run (its history), in the tab's storage or the profile's
		waitTrue(`[localStorage, sessionStorage].some(s => Object.keys(s).some(k => k.startsWith("graphiql:") && s.getItem(k).includes(`+jsString(marker)+`)))`),
		chromedp.Evaluate(`JSON.stringify(Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)])))`, &stored),
	)
	if strings.Contains(stored, marker) || strings.Contains(stored, "graphiql:") {
		t.Errorf("the playground keeps what was run in localStorage: %.300s", stored)
	}
}
