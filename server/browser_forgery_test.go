package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
)

// recorders keep what each role received.
type recorders struct{ idp, console, tenant *recorder }

// mustRunRecordedAll starts the platform recording every role's requests.
func mustRunRecordedAll(t *testing.T) (*Main, recorders) {
	rec := recorders{&recorder{}, &recorder{}, &recorder{}}
	m := mustRunMainWith(t, func(m *Main) {
		m.WrapRole = func(role string, h http.Handler) http.Handler {
			return map[string]*recorder{RoleIDP: rec.idp, RoleConsole: rec.console, RoleTenant: rec.tenant}[role].wrap(h)
		}
	})
	return m, rec
}

// authorizeQuery returns the query of the last authorize request the
// identity provider received for clientID: what the victim's browser sent.
func authorizeQuery(t *testing.T, rec *recorder, clientID string) url.Values {
	t.Helper()
	var q url.Values
	for _, r := range rec.all() {
		parts := strings.SplitN(r, " ", 3)
		if parts[0] != http.MethodGet || !strings.HasPrefix(parts[1], idp.PathAuthorize+"?") {
			continue
		}
		u, _ := url.Parse(parts[1])
		if u.Query().Get("client_id") == clientID {
			q = u.Query()
		}
	}
	if q == nil {
		t.Fatalf("no authorize request of %s reached the provider", clientID)
	}
	return q
}

// authorizeAs is the attacker: it runs an authorization of its own with
// query at the provider, signs in as email, and returns the code the
// provider sends to the redirect URI, without redeeming it.
func authorizeAs(t *testing.T, m *Main, query url.Values, email string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	redirect := query.Get("redirect_uri")
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	query.Set("login_hint", email)
	resp, err := c.Get(m.Config.IssuerURL + idp.PathAuthorize + "?" + query.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"email": {email}, "password": {DemoPassword}}
	for _, mm := range regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(mm[1], mm[2])
	}
	resp, err = c.PostForm(m.Config.IssuerURL+idp.PathLogin, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if code := loc.Query().Get("code"); code != "" && strings.HasPrefix(loc.String(), redirect) {
		return code
	}
	t.Fatalf("the attacker's authorization did not end at %s with a code: %v", redirect, loc)
	return ""
}

// count returns how many requests of rec start with prefix.
func count(rec *recorder, prefix string) int {
	n := 0
	for _, r := range rec.all() {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

// errorShown waits for the page's error and returns it.
func errorShown(t *testing.T, ctx context.Context) string {
	t.Helper()
	var msg string
	if err := chromedp.Run(ctx, chromedp.WaitVisible(`#error`, chromedp.ByID), textOf(`#error`, &msg)); err != nil {
		t.Fatal(err)
	}
	return msg
}

// storedToken reads a token the page kept in sessionStorage ("" for none).
func storedToken(t *testing.T, ctx context.Context, key string) string {
	t.Helper()
	var v string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`sessionStorage.getItem("`+key+`") || ""`, &v)); err != nil {
		t.Fatal(err)
	}
	return v
}

// The console's own flow in Chromium refuses a callback whose state it did
// not issue (login CSRF: an attacker's code and state sent to the victim's
// browser) before it redeems the code, and refuses an id_token whose nonce
// it did not issue (code injection: the attacker authorizes with the
// victim's state and PKCE challenge, which it can read off the victim's
// authorize request, and its own nonce), before it keeps any token or asks
// the console who the user is. Deleting either check fails this test.
//
// spec: R5.1-state, R5.1-nonce
// attack: forged-state-and-nonce-console
func TestAttackBrowserConsoleForgedStateAndNonce(t *testing.T) {
	t.Parallel()
	m, rec := mustRunRecordedAll(t)
	client, callbackURL := m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback"

	// the victim starts signing in; its browser now keeps a state, a nonce and a verifier
	victimStarts := func(t *testing.T) (context.Context, url.Values) {
		ctx := mustBrowser(t)
		if err := chromedp.Run(ctx, gatewayEmail(m.Config.ConsoleURL+"/", "alice@acme.example"),
			chromedp.WaitVisible(`#password`, chromedp.ByID)); err != nil {
			t.Fatal(err)
		}
		return ctx, authorizeQuery(t, rec.idp, client)
	}

	t.Run("ForgedState", func(t *testing.T) {
		ctx, victim := victimStarts(t)
		attacker := url.Values{}
		for k, v := range victim {
			attacker[k] = v
		}
		attacker.Set("state", "attacker-state")
		attacker.Set("code_challenge", oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier()))
		code := authorizeAs(t, m, attacker, "bob@acme.example")
		tokens := count(rec.idp, "POST "+idp.PathToken)
		if err := chromedp.Run(ctx, chromedp.Navigate(callbackURL+"?code="+url.QueryEscape(code)+"&state=attacker-state")); err != nil {
			t.Fatal(err)
		}
		if msg := errorShown(t, ctx); !strings.Contains(msg, "state mismatch") {
			t.Fatalf("the callback showed %q, want the state mismatch", msg)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "console-forged-state"))
		if n := count(rec.idp, "POST "+idp.PathToken); n != tokens {
			t.Fatal("the page redeemed a code that came with a state it never issued")
		}
		if storedToken(t, ctx, "access_token") != "" || count(rec.console, "GET /api/v1/auth/me") != 0 {
			t.Fatal("the page signed in with a forged state")
		}
	})

	t.Run("ForgedNonce", func(t *testing.T) {
		ctx, victim := victimStarts(t)
		attacker := url.Values{}
		for k, v := range victim { // the victim's state and PKCE challenge, the attacker's nonce
			attacker[k] = v
		}
		attacker.Set("nonce", "attacker-nonce")
		code := authorizeAs(t, m, attacker, "bob@acme.example")
		tokens := count(rec.idp, "POST "+idp.PathToken)
		if err := chromedp.Run(ctx, chromedp.Navigate(callbackURL+"?code="+url.QueryEscape(code)+"&state="+url.QueryEscape(victim.Get("state")))); err != nil {
			t.Fatal(err)
		}
		if msg := errorShown(t, ctx); !strings.Contains(msg, "nonce mismatch") {
			t.Fatalf("the callback showed %q, want the nonce mismatch", msg)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "console-forged-nonce"))
		if count(rec.idp, "POST "+idp.PathToken) != tokens+1 {
			t.Fatal("the page did not redeem the code: the state check, not the nonce check, refused (the attack is not set up right)")
		}
		if storedToken(t, ctx, "access_token") != "" || storedToken(t, ctx, "id_token") != "" || count(rec.console, "GET /api/v1/auth/me") != 0 {
			t.Fatal("the page kept or used the attacker's tokens")
		}
	})
}

// The tenant web app in Chromium refuses a callback whose state it did not
// issue before redeeming the code, and an id_token whose nonce it did not
// issue before it keeps a token or asks its backend for a session: the
// backend receives no callback and the browser gets no session cookie.
// Deleting either check fails this test.
//
// spec: R5.1-state, R5.1-nonce
// attack: forged-state-and-nonce-tenant
func TestAttackBrowserTenantForgedStateAndNonce(t *testing.T) {
	t.Parallel()
	m, rec := mustRunRecordedAll(t)
	client, callbackURL := m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback"

	victimStarts := func(t *testing.T) (context.Context, url.Values) {
		ctx := mustBrowser(t)
		if err := chromedp.Run(ctx,
			chromedp.Navigate(m.Config.InstanceURL+"/?signin=interactive"),
			chromedp.WaitVisible(`#email`, chromedp.ByID),
			chromedp.SendKeys(`#email`, "alice@acme.example", chromedp.ByID),
			chromedp.Click(`#email-step button`, chromedp.ByQuery),
			chromedp.WaitVisible(`#password`, chromedp.ByID)); err != nil {
			t.Fatal(err)
		}
		return ctx, authorizeQuery(t, rec.idp, client)
	}
	noSession := func(t *testing.T, ctx context.Context) {
		t.Helper()
		if count(rec.tenant, "POST /auth/idp/callback") != 0 {
			t.Fatal("the web app posted the attacker's tokens to its backend")
		}
		var cookies []*network.Cookie
		if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			cookies, err = network.GetCookies().Do(ctx)
			return err
		})); err != nil {
			t.Fatal(err)
		}
		for _, c := range cookies {
			if c.Name == "tenant_session" {
				t.Fatal("the browser holds a tenant session")
			}
		}
		if storedToken(t, ctx, "access_token") != "" || storedToken(t, ctx, "id_token") != "" {
			t.Fatal("the web app kept the attacker's tokens")
		}
	}

	t.Run("ForgedState", func(t *testing.T) {
		ctx, victim := victimStarts(t)
		attacker := url.Values{}
		for k, v := range victim {
			attacker[k] = v
		}
		attacker.Set("state", "attacker-state")
		attacker.Set("code_challenge", oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier()))
		code := authorizeAs(t, m, attacker, "bob@acme.example")
		tokens := count(rec.idp, "POST "+idp.PathToken)
		if err := chromedp.Run(ctx, chromedp.Navigate(callbackURL+"?code="+url.QueryEscape(code)+"&state=attacker-state")); err != nil {
			t.Fatal(err)
		}
		if msg := errorShown(t, ctx); !strings.Contains(msg, "state mismatch") {
			t.Fatalf("the callback showed %q, want the state mismatch", msg)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "tenant-forged-state"))
		if count(rec.idp, "POST "+idp.PathToken) != tokens {
			t.Fatal("the web app redeemed a code that came with a state it never issued")
		}
		noSession(t, ctx)
	})

	t.Run("ForgedNonce", func(t *testing.T) {
		ctx, victim := victimStarts(t)
		attacker := url.Values{}
		for k, v := range victim {
			attacker[k] = v
		}
		attacker.Set("nonce", "attacker-nonce")
		code := authorizeAs(t, m, attacker, "bob@acme.example")
		tokens := count(rec.idp, "POST "+idp.PathToken)
		if err := chromedp.Run(ctx, chromedp.Navigate(callbackURL+"?code="+url.QueryEscape(code)+"&state="+url.QueryEscape(victim.Get("state")))); err != nil {
			t.Fatal(err)
		}
		if msg := errorShown(t, ctx); !strings.Contains(msg, "nonce mismatch") {
			t.Fatalf("the callback showed %q, want the nonce mismatch", msg)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "tenant-forged-nonce"))
		if count(rec.idp, "POST "+idp.PathToken) != tokens+1 {
			t.Fatal("the web app did not redeem the code: the state check, not the nonce check, refused (the attack is not set up right)")
		}
		noSession(t, ctx)
	})
}
