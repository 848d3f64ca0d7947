package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/tenant"
)

// actAsWorld is an impersonationWorld whose platform admin is signed in
// at the provider in a browser of its own (jar): the browser that opens
// the customer's tenant web app as the user.
type actAsWorld struct {
	*impersonationWorld
	jar http.CookieJar
}

func newActAsWorld(t *testing.T) *actAsWorld {
	t.Helper()
	w := &actAsWorld{impersonationWorld: newImpersonationWorld(t, true)}
	w.jar, _ = cookiejar.New(nil)
	admin, _ := demoLoginIn(t, w.m, w.jar, w.m.Config.ConsoleClientID, w.m.Config.ConsoleURL+"/callback", "admin@platform.example")
	w.admin = admin.AccessToken
	return w
}

// running starts an impersonation of Bob by the admin and exchanges it,
// answering its id and the console's token.
func (w *actAsWorld) running(t *testing.T) (string, string) {
	t.Helper()
	subject, start := w.start(t, w.admin, demoBobID)
	ans := w.exchange(t, subject, w.admin)
	if ans.status != http.StatusOK {
		t.Fatalf("exchange: %d %v", ans.status, ans.body)
	}
	return start["id"].(string), ans.accessToken()
}

// tenantSession starts an impersonation of Bob by the admin and signs a
// browser of its own in to the tenant web app through it: the
// impersonation's id, the console's token, the tenant app's tokens and the
// browser.
func (w *actAsWorld) tenantSession(t *testing.T) (id, console string, tok *oauth2.Token, app *http.Client) {
	t.Helper()
	m := w.m
	id, console = w.running(t)
	tok = authorizeActingAs(t, m, w.jar, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", id).tokens(t)
	jar, _ := cookiejar.New(nil)
	app = &http.Client{Jar: jar}
	if resp, body := postJSON(t, app, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, Nonce: "nonce-7"}); resp.StatusCode != http.StatusOK {
		t.Fatalf("tenant callback = %d %v", resp.StatusCode, body)
	}
	return id, console, tok, app
}

// actAs is one authorization request with the impersonation parameter.
type actAs struct {
	cfg      oauth2.Config
	verifier string
	// back is what the provider sent the browser back with: code and
	// state, or error; nil when it answered a page instead.
	back url.Values
}

// authorizeActingAs sends the browser of jar to the authorization
// endpoint as clientID (redirect) with impersonation=id, scopes besides
// openid profile email, and follows it until the provider sends it back.
func authorizeActingAs(t *testing.T, m *Main, jar http.CookieJar, clientID, redirect, id string, scopes ...string) actAs {
	t.Helper()
	a := actAs{verifier: oauth2.GenerateVerifier(), cfg: oauth2.Config{ClientID: clientID, RedirectURL: redirect,
		Scopes: append([]string{"openid", "profile", "email"}, scopes...),
		Endpoint: oauth2.Endpoint{AuthURL: m.Config.IssuerURL + idp.PathAuthorize, TokenURL: m.Config.IssuerURL + idp.PathToken,
			AuthStyle: oauth2.AuthStyleInParams}}}
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := c.Get(a.cfg.AuthCodeURL("state-7", oauth2.S256ChallengeOption(a.verifier), oauth2.SetAuthURLParam("nonce", "nonce-7"),
		oauth2.SetAuthURLParam(idp.ParamImpersonation, id)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc, err := url.Parse(resp.Header.Get("Location")); err == nil && strings.HasPrefix(loc.String(), redirect) {
		a.back = loc.Query()
	}
	return a
}

// tokens redeems the code the provider sent back.
func (a actAs) tokens(t *testing.T) *oauth2.Token {
	t.Helper()
	if a.back.Get("code") == "" || a.back.Get("state") != "state-7" {
		t.Fatalf("the provider sent back %v, want a code", a.back)
	}
	tok, err := a.cfg.Exchange(context.Background(), a.back.Get("code"), oauth2.VerifierOption(a.verifier))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// refused fails unless the provider sent the browser back with
// access_denied and no code: never a sign-in.
func (a actAs) refused(t *testing.T, what string) {
	t.Helper()
	if a.back == nil || a.back.Get("code") != "" || a.back.Get("error") != "access_denied" {
		t.Errorf("%s: the provider sent back %v, want access_denied", what, a.back)
	}
}

// introspectActive asks the provider, as the console's service client,
// whether an access token is active.
func introspectActive(t *testing.T, m *Main, token string) bool {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, m.Config.IssuerURL+idp.PathIntrospect, strings.NewReader(url.Values{"token": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	secret, err := m.Config.consoleServiceSecret()
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(m.Config.ConsoleServiceClientID, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("introspection = %d %v", resp.StatusCode, body)
	}
	return body["active"] == true
}

// endTenantImpersonation posts the banner's End with header k: v (the web
// app's pages send X-Requested-With).
func endTenantImpersonation(t *testing.T, m *Main, c *http.Client, k, v string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, m.Config.InstanceURL+"/auth/impersonation/end", nil)
	req.Header.Set(k, v)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Support impersonation reaches the tenant web app, end to end over HTTP:
// the admin starts and exchanges an impersonation of Bob, then, with its
// own provider session, authorizes the demo instance with the
// impersonation's id (offline_access asked for); the code gives Bob's
// tokens with act naming the admin, on the impersonation's grant, no
// refresh token, none outliving the impersonation; the tenant callback
// makes a session that says who acts; End there ends the impersonation:
// the customer's list shows it ended by the admin, the tenant session and
// the console's token are refused, the provider reports the tokens
// inactive, and the customer's audit log has the issue with the
// impersonator.
// spec: D-impersonation
func TestTenantImpersonationEndToEnd(t *testing.T) {
	t.Parallel()
	w := newActAsWorld(t)
	m := w.m
	id, console := w.running(t)
	a := authorizeActingAs(t, m, w.jar, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", id, "offline_access")
	tok := a.tokens(t)
	if tok.RefreshToken != "" {
		t.Fatal("an impersonation's code issued a refresh token")
	}
	idToken, _ := tok.Extra("id_token").(string)
	var row struct{ expires time.Time }
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT expires_at FROM impersonations WHERE id = $1`, id).
		Scan(&row.expires); err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string]string{"id_token": idToken, "access token": tok.AccessToken} {
		c := jwtClaims(t, raw)
		act, _ := c["act"].(map[string]any)
		if c["sub"] != demoBobID || act["sub"] != demoAdminID {
			t.Errorf("%s: sub %v act %v, want Bob acted for by the admin", name, c["sub"], c["act"])
		}
		if exp := int64(c["exp"].(float64)); exp > row.expires.Unix() {
			t.Errorf("%s expires at %d, after the impersonation (%d)", name, exp, row.expires.Unix())
		}
	}
	if c := jwtClaims(t, tok.AccessToken); c["grant_id"] != id || c["client_id"] != m.Config.InstanceClientID {
		t.Fatalf("access token claims = %v", c)
	}
	if c := jwtClaims(t, idToken); c["nonce"] != "nonce-7" {
		t.Fatalf("id_token nonce = %v", c["nonce"])
	}
	jar, _ := cookiejar.New(nil)
	app := &http.Client{Jar: jar}
	resp, body := postJSON(t, app, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{IDToken: idToken,
		AccessToken: tok.AccessToken, Nonce: "nonce-7"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tenant callback = %d %v", resp.StatusCode, body)
	}
	code, s := getJSON(t, app, m.Config.InstanceURL+"/auth/session")
	actor, _ := s["actor"].(map[string]any)
	user, _ := s["user"].(map[string]any)
	if code != http.StatusOK || user["email"] != "bob@acme.example" || actor["sub"] != demoAdminID || actor["email"] != "admin@platform.example" {
		t.Fatalf("session = %d %v", code, s)
	}
	if !introspectActive(t, m, tok.AccessToken) {
		t.Fatal("the tenant's access token is not active before End")
	}
	if code := endTenantImpersonation(t, m, app, "X-Requested-With", "fetch"); code != http.StatusNoContent {
		t.Fatalf("End = %d", code)
	}
	_, list := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	if it := list["items"].([]any)[0].(map[string]any); it["id"] != id || it["state"] != "ended" || it["endedBy"] != demoAdminID {
		t.Fatalf("the customer's list after End: %v", it)
	}
	if code, _ := getJSON(t, app, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("the tenant session after End = %d, want 401", code)
	}
	if code, _ := adminCall(t, m, console, "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("the console's impersonation token after End = %d, want 401", code)
	}
	for name, raw := range map[string]string{"tenant": tok.AccessToken, "console": console} {
		if introspectActive(t, m, raw) {
			t.Errorf("the %s access token is still active after End", name)
		}
	}
	code, log := adminCall(t, m, w.alice, "GET", "/audit-log?limit=50", nil)
	seen := map[string]bool{}
	for _, e := range log["items"].([]any) {
		ev := e.(map[string]any)
		a, _ := ev["actor"].(map[string]any)
		target, _ := ev["target"].(map[string]any)
		if a["userId"] == demoBobID && a["impersonatorId"] == demoAdminID && target["id"] == m.Config.InstanceClientID {
			seen[ev["kind"].(string)] = true
		}
	}
	if code != http.StatusOK || !seen["token.issued"] || !seen["token.revoked"] {
		t.Fatalf("the customer's audit log (%d) lacks the instance's issue and End with the impersonator: %v", code, seen)
	}
}

// When the impersonation ends elsewhere (the customer ends it), the tenant
// session made from it stops at once.
// spec: D-impersonation
func TestTenantImpersonationEndedByCustomer(t *testing.T) {
	t.Parallel()
	w := newActAsWorld(t)
	m := w.m
	id, _, _, app := w.tenantSession(t)
	if code, body := adminCall(t, m, w.alice, "DELETE", "/impersonations/"+id, nil); code != http.StatusOK {
		t.Fatalf("the customer ends it: %d %v", code, body)
	}
	if code, _ := getJSON(t, app, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("the tenant session after the customer ended the impersonation = %d, want 401", code)
	}
}

// The support user signing out at the provider ends what it was doing as
// the customer's user: the impersonation (exchanged with the console token
// of that sign-in) ends, and with it the tenant session made from it and
// its access token, at once; the customer's list shows it ended by the
// support user.
// attack: tenant-impersonation-outlives-sign-out
func TestAttackTenantImpersonationOutlivesSignOut(t *testing.T) {
	t.Parallel()
	w := newActAsWorld(t)
	m := w.m
	id, console, tok, app := w.tenantSession(t)
	if code, _ := getJSON(t, app, m.Config.InstanceURL+"/auth/session"); code != http.StatusOK {
		t.Fatalf("the tenant session before the sign-out = %d", code)
	}
	providerSignOut(t, m, w.jar)
	if code, _ := getJSON(t, app, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Errorf("the tenant session after the support user signed out = %d, want 401", code)
	}
	for name, raw := range map[string]string{"tenant": tok.AccessToken, "console": console} {
		if introspectActive(t, m, raw) {
			t.Errorf("the %s access token is still active after the sign-out", name)
		}
	}
	code, list := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	items, _ := list["items"].([]any)
	if code != http.StatusOK || len(items) == 0 {
		t.Fatalf("the customer's impersonations = %d %v", code, list)
	}
	if got := items[0].(map[string]any); got["id"] != id || got["endedAt"] == nil || got["endedBy"] != demoAdminID {
		t.Errorf("the impersonation after the sign-out = %v, want ended by the support user", got)
	}
}

// A tenant session of the user's own has no actor and nothing to end; End
// from another site is refused.
// attack: tenant-impersonation-end-csrf
func TestAttackTenantImpersonationEnd(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	jar, _ := cookiejar.New(nil)
	own, _ := tenantSignIn(t, m, jar, "bob@acme.example")
	if code, s := getJSON(t, own, m.Config.InstanceURL+"/auth/session"); code != http.StatusOK || s["actor"] != nil {
		t.Fatalf("a session of the user's own = %d %v, want no actor", code, s)
	}
	if code := endTenantImpersonation(t, m, own, "X-Requested-With", "fetch"); code != http.StatusConflict {
		t.Fatalf("End of a session acting for nobody = %d, want 409", code)
	}
	if code := endTenantImpersonation(t, m, own, "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Fatalf("End from another site = %d, want 403", code)
	}
}

// The impersonation parameter never signs anyone in as the user unless
// the browser is the impersonation's support user's and the impersonation
// runs: someone else's provider session (the customer's owner), no
// session; an impersonation never exchanged, awaiting approval, ended or
// expired; an application of another customer, the console's own client.
// Each is access_denied to the redirect URI.
// attack: tenant-impersonation-refused
func TestAttackTenantImpersonationRefused(t *testing.T) {
	t.Parallel()
	w := newActAsWorld(t)
	m := w.m
	inst, instCallback := m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback"
	id, _ := w.running(t)

	aliceJar, _ := cookiejar.New(nil)
	demoLoginIn(t, m, aliceJar, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	authorizeActingAs(t, m, aliceJar, inst, instCallback, id).refused(t, "the customer owner's session")
	noSession, _ := cookiejar.New(nil)
	authorizeActingAs(t, m, noSession, inst, instCallback, id).refused(t, "no provider session")
	authorizeActingAs(t, m, w.jar, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", id).refused(t, "the console's client")
	code, globex := adminCall(t, m, w.admin, http.MethodPost, "/instances", map[string]any{"customerId": DemoGlobexCustomerID,
		"name": "Globex staging", "url": "https://staging.globex.example"})
	if code != http.StatusCreated {
		t.Fatalf("instance = %d %v", code, globex)
	}
	conn := globex["connection"].(map[string]any)
	authorizeActingAs(t, m, w.jar, conn["oidcClientId"].(string), conn["oidcRedirectUri"].(string), id).
		refused(t, "another customer's application")
	authorizeActingAs(t, m, w.jar, inst, instCallback, "no-such-impersonation").refused(t, "an unknown id")
	authorizeActingAs(t, m, w.jar, inst, instCallback, strings.Repeat("<x>", 600)).refused(t, "not an id")

	_, start := w.start(t, w.admin, demoBobID) // never exchanged
	authorizeActingAs(t, m, w.jar, inst, instCallback, start["id"].(string)).refused(t, "an impersonation never exchanged")

	expired, _ := w.running(t)
	if _, err := m.Store.Conn().Exec(context.Background(), `UPDATE impersonations SET expires_at = $1 WHERE id = $2`,
		time.Now().Add(-time.Second).UTC(), expired); err != nil {
		t.Fatal(err)
	}
	authorizeActingAs(t, m, w.jar, inst, instCallback, expired).refused(t, "an expired impersonation")

	if code, body := adminCall(t, m, w.alice, "DELETE", "/impersonations/"+id, nil); code != http.StatusOK {
		t.Fatalf("the customer ends it: %d %v", code, body)
	}
	authorizeActingAs(t, m, w.jar, inst, instCallback, id).refused(t, "an ended impersonation")

	w.requireApproval(t, demoAliceID)
	pending := w.request(t, w.admin, demoBobID)
	authorizeActingAs(t, m, w.jar, inst, instCallback, pending).refused(t, "an impersonation awaiting approval")

	// Each refusal of a signed-in browser is an access.denied event with
	// why; the customer's owner reads those of its impersonations, the
	// attempt on an unknown one is platform-wide, and the browser without
	// a session left none.
	reasons := func(token string) map[string][]string { // reason → who
		out := map[string][]string{}
		for _, e := range auditItems(t, m, token, "kind=access.denied") {
			target, _ := e["target"].(map[string]any)
			actor, _ := e["actor"].(map[string]any)
			if target["type"] == "impersonation" {
				out[e["reason"].(string)] = append(out[e["reason"].(string)], fmt.Sprint(actor["userId"]))
				if id, _ := target["id"].(string); len(id) > 64 || strings.Contains(id, "<") {
					t.Errorf("the event names the request's text as the impersonation: %.80q", id)
				}
			}
		}
		return out
	}
	want := map[string][]string{
		"not_the_support_user":          {demoAliceID},
		"not_the_customers_application": {demoAdminID, demoAdminID},
		"impersonation_not_running":     {demoAdminID, demoAdminID, demoAdminID, demoAdminID},
	}
	if got := reasons(w.alice); !reflect.DeepEqual(got, want) {
		t.Errorf("the customer's refused impersonations = %v, want %v", got, want)
	}
	want["impersonation_unknown"] = []string{demoAdminID, demoAdminID}
	if got := reasons(w.admin); !reflect.DeepEqual(got, want) {
		t.Errorf("the platform's refused impersonations = %v, want %v", got, want)
	}
}

// A code issued for an impersonation redeemed after the impersonation
// ended gives nothing; a code issued shortly before the impersonation's
// end gives tokens that end with it, never a refresh token even when
// offline_access is asked for.
// attack: tenant-impersonation-lifetime
func TestAttackTenantImpersonationLifetime(t *testing.T) {
	t.Parallel()
	w := newActAsWorld(t)
	m := w.m
	id, _ := w.running(t)
	end := time.Now().Add(5 * time.Minute).UTC().Truncate(time.Second)
	if _, err := m.Store.Conn().Exec(context.Background(), `UPDATE impersonations SET expires_at = $1 WHERE id = $2`, end, id); err != nil {
		t.Fatal(err)
	}
	tok := authorizeActingAs(t, m, w.jar, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", id, "offline_access").tokens(t)
	if tok.RefreshToken != "" {
		t.Fatal("a refresh token was issued for an impersonation")
	}
	for name, raw := range map[string]string{"id_token": tok.Extra("id_token").(string), "access token": tok.AccessToken} {
		if exp := int64(jwtClaims(t, raw)["exp"].(float64)); exp > end.Unix() {
			t.Errorf("the %s outlives the impersonation: exp %d > %d", name, exp, end.Unix())
		}
	}
	// a code of a running impersonation, redeemed after it ended
	a := authorizeActingAs(t, m, w.jar, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", id)
	if code, body := adminCall(t, m, w.alice, "DELETE", "/impersonations/"+id, nil); code != http.StatusOK {
		t.Fatalf("the customer ends it: %d %v", code, body)
	}
	if a.back.Get("code") == "" {
		t.Fatalf("no code: %v", a.back)
	}
	if _, err := a.cfg.Exchange(context.Background(), a.back.Get("code"), oauth2.VerifierOption(a.verifier)); err == nil {
		t.Fatal("a code of an ended impersonation was redeemed")
	}
}
