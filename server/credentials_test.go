package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/tenant"
)

const (
	demoAdminID = "2b7e4d10-0000-4000-8000-000000000001"
	demoBobID   = "2b7e4d10-0000-4000-8000-000000000003" // member of Acme
)

// answer is one response of an API: status, WWW-Authenticate and body.
type answer struct {
	status    int
	challenge string
	body      map[string]any
}

// call sends method url with a bearer token (when set) or through c (its
// cookies), and a JSON body (when set).
func call(t *testing.T, c *http.Client, method, url, token string, body any) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return answer{status: resp.StatusCode, challenge: resp.Header.Get("WWW-Authenticate"), body: out}
}

// wantRefused checks a 401 with the challenge and the 7.1 error object.
func wantRefused(t *testing.T, name string, a answer) {
	t.Helper()
	e, _ := a.body["error"].(map[string]any)
	if a.status != http.StatusUnauthorized || !strings.HasPrefix(a.challenge, "Bearer ") || a.body["code"] != float64(401) ||
		e == nil || a.body["timestamp"] == nil || a.body["path"] == nil {
		t.Errorf("%s = %d (WWW-Authenticate %q) %v, want 401 with a challenge and the 7.1 object", name, a.status, a.challenge, a.body)
	}
}

// signedIn is one user's credentials at every API: a console access token,
// an instance access token and a tenant web app session made from it.
type signedIn struct {
	console *oauth2.Token
	tenant  *oauth2.Token
	session *http.Client // carries the tenant_session cookie
}

func signIn(t *testing.T, m *Main, email string) signedIn {
	t.Helper()
	con, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", email, "offline_access")
	ten, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", email, "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	a := call(t, c, http.MethodPost, m.Config.InstanceURL+"/auth/idp/callback", "", tenant.CallbackRequest{
		IDToken: ten.Extra("id_token").(string), AccessToken: ten.AccessToken, RefreshToken: ten.RefreshToken, Nonce: "nonce-1"})
	if a.status != 200 {
		t.Fatalf("tenant session = %d %v", a.status, a.body)
	}
	return signedIn{console: con, tenant: ten, session: c}
}

// dataGQL is a query of the data subgraph, which the tenant role's
// /graphql serves (D-graphql-subgraphs).
var dataGQL = map[string]any{"query": `{ masterRecords(master: "Building", pageSize: 1) { total } }`}

// apis asks every API as s: the console's REST and GraphQL with the console
// token, the data API and the tenant GraphQL with the instance token, the
// data API and the session endpoint with the session cookie.
func apis(t *testing.T, m *Main, consoleURL string, s signedIn) map[string]answer {
	t.Helper()
	gql := map[string]any{"query": "{ me { userId role } }"}
	return map[string]answer{
		"console /auth/me":           call(t, nil, http.MethodGet, consoleURL+"/api/v1/auth/me", s.console.AccessToken, nil),
		"console /me/permissions":    call(t, nil, http.MethodGet, consoleURL+"/api/v1/me/permissions", s.console.AccessToken, nil),
		"console /graphql":           call(t, nil, http.MethodPost, consoleURL+"/graphql", s.console.AccessToken, gql),
		"data API bearer":            call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", s.tenant.AccessToken, nil),
		"tenant /graphql bearer":     call(t, nil, http.MethodPost, m.Config.InstanceURL+"/graphql", s.tenant.AccessToken, dataGQL),
		"data API session":           call(t, s.session, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", "", nil),
		"tenant /auth/session":       call(t, s.session, http.MethodGet, m.Config.InstanceURL+"/auth/session", "", nil),
		"data API master records":    call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/master-record/Building", s.tenant.AccessToken, nil),
		"tenant /graphql via cookie": call(t, s.session, http.MethodPost, m.Config.InstanceURL+"/graphql", "", dataGQL),
	}
}

func wantAllowed(t *testing.T, answers map[string]answer) {
	t.Helper()
	for name, a := range answers {
		if a.status != 200 {
			t.Fatalf("%s = %d %v, want 200", name, a.status, a.body)
		}
	}
}

func wantAllRefused(t *testing.T, answers map[string]answer) {
	t.Helper()
	for name, a := range answers {
		if name == "tenant /auth/session" { // the web app's own endpoint: 401, its body is the 7.1 object too
			if a.status != http.StatusUnauthorized {
				t.Errorf("%s = %d, want 401", name, a.status)
			}
			continue
		}
		wantRefused(t, name, a)
	}
}

// consoleReplica starts a second console process on the same database: a
// replica behind the same load balancer.
func consoleReplica(t *testing.T, m *Main) string {
	t.Helper()
	return roleReplica(t, m, RoleConsole, nil)
}

// roleReplica starts a process of role on m's database with m's
// configuration as edit changes it, and returns its URL.
func roleReplica(t *testing.T, m *Main, role string, edit func(*Config)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config
	cfg.Role, cfg.SeedDemo = role, false
	cfg.ConsoleServiceClientSecret = strings.Repeat("r", 32)
	if edit != nil {
		edit(&cfg)
	}
	r := NewMain(cfg)
	r.Listeners[role] = ln
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return "http://" + ln.Addr().String()
}

// Suspending a user ends its API access at once, everywhere: the console
// access token (REST and GraphQL, on this console and on a second replica),
// the instance access token at the data API and the tenant GraphQL, and the
// tenant web app's session, all answer 401 with the 7.1 object on the next
// request. Reactivation brings none of them back; a new sign-in works.
// Deleting a user ends its credentials the same way.
//
// attack: credentials-outlive-suspension
func TestAttackCredentialsFollowSuspension(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	replica := consoleReplica(t, m)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	bob := signIn(t, m, "bob@acme.example")
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, bob))
	wantAllowed(t, apis(t, m, replica, bob))

	if code, body := adminCall(t, m, admin.AccessToken, http.MethodPost, "/users/"+demoBobID+"/suspend", nil); code != 200 {
		t.Fatalf("suspend = %d %v", code, body)
	}
	wantAllRefused(t, apis(t, m, m.Config.ConsoleURL, bob))
	wantAllRefused(t, apis(t, m, replica, bob))
	// the refresh token died with the grant: no way back in through it
	if _, err := (&oauth2.Config{ClientID: m.Config.InstanceClientID, Endpoint: oauth2.Endpoint{TokenURL: m.Config.IssuerURL + "/oauth/v2/token"}}).
		TokenSource(context.Background(), &oauth2.Token{RefreshToken: bob.tenant.RefreshToken}).Token(); err == nil {
		t.Error("a suspended user's refresh token still works")
	}

	if code, body := adminCall(t, m, admin.AccessToken, http.MethodPost, "/users/"+demoBobID+"/reactivate", nil); code != 200 {
		t.Fatalf("reactivate = %d %v", code, body)
	}
	wantAllRefused(t, apis(t, m, m.Config.ConsoleURL, bob))
	again := signIn(t, m, "bob@acme.example")
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, again))
	wantAllowed(t, apis(t, m, replica, again))

	t.Run("Deletion", func(t *testing.T) {
		if code, body := adminCall(t, m, admin.AccessToken, http.MethodDelete, "/users/"+demoBobID, nil); code != 204 {
			t.Fatalf("delete = %d %v", code, body)
		}
		wantAllRefused(t, apis(t, m, m.Config.ConsoleURL, again))
		wantAllRefused(t, apis(t, m, replica, again))
	})
}

// A password change (the store's SetPassword, which a reset runs) ends every
// token and session issued before it.
func TestPasswordChangeEndsCredentials(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	bob := signIn(t, m, "bob@acme.example")
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, bob))
	u, err := m.Store.User(context.Background(), demoBobID)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Store.SetPassword(context.Background(), demoBobID, u.PasswordHash); err != nil {
		t.Fatal(err)
	}
	wantAllRefused(t, apis(t, m, m.Config.ConsoleURL, bob))
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, signIn(t, m, "bob@acme.example")))
}

// Revoking a refresh token at the provider (RFC 7009) revokes its grant:
// the access tokens of that grant stop working at the console at once,
// while the user's other grants (the instance's, the session) go on.
// attack: revoked-grant-still-accepted
func TestAttackRevokedGrantAtAPIs(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	bob := signIn(t, m, "bob@acme.example")
	resp, err := http.PostForm(m.Config.IssuerURL+"/oauth/v2/revoke", map[string][]string{
		"token": {bob.console.RefreshToken}, "client_id": {m.Config.ConsoleClientID}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("revoke = %d", resp.StatusCode)
	}
	answers := apis(t, m, m.Config.ConsoleURL, bob)
	for name, a := range answers {
		if strings.HasPrefix(name, "console ") {
			wantRefused(t, name, a)
		} else if a.status != 200 {
			t.Errorf("%s = %d after revoking another grant, want 200", name, a.status)
		}
	}
}

// Reusing a rotated refresh token revokes its family at the provider, and
// with it the grant: the family's access tokens, the old and the one the
// refresh issued, and the session made from the family, are refused at the
// console (REST and GraphQL) and at the data API at once, on every replica.
// Other grants of the same user keep working.
//
// attack: refresh-reuse-keeps-api-access
func TestAttackRefreshReuseEndsAPIAccess(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	replica := consoleReplica(t, m)
	bob := signIn(t, m, "bob@acme.example")
	other := signIn(t, m, "bob@acme.example") // a second sign-in: its own grants
	refresh := func(clientID string, tok *oauth2.Token) (*oauth2.Token, error) {
		cfg := oauth2.Config{ClientID: clientID, Endpoint: oauth2.Endpoint{TokenURL: m.Config.IssuerURL + "/oauth/v2/token"}}
		return cfg.TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	}
	nextConsole, err := refresh(m.Config.ConsoleClientID, bob.console)
	if err != nil {
		t.Fatal(err)
	}
	nextTenant, err := refresh(m.Config.InstanceClientID, bob.tenant)
	if err != nil {
		t.Fatal(err)
	}
	rotated := signedIn{console: nextConsole, tenant: nextTenant, session: bob.session}
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, rotated))

	// an attacker replays the rotated refresh tokens
	if _, err := refresh(m.Config.ConsoleClientID, bob.console); err == nil {
		t.Fatal("a used console refresh token worked")
	}
	if _, err := refresh(m.Config.InstanceClientID, bob.tenant); err == nil {
		t.Fatal("a used instance refresh token worked")
	}
	for _, base := range []string{m.Config.ConsoleURL, replica} {
		wantAllRefused(t, apis(t, m, base, bob))
		wantAllRefused(t, apis(t, m, base, rotated))
		wantAllowed(t, apis(t, m, base, other))
	}
}

// An id_token is not an access token: presented as a bearer credential it is
// refused everywhere, as is an access token of another audience (the
// instance's at the console, the console's at the data API), with 401, the
// 7.1 object and an invalid_token challenge.
//
// attack: id-token-as-bearer
func TestAttackIDTokenAsBearer(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	bob := signIn(t, m, "bob@acme.example")
	gql := map[string]any{"query": "{ me { userId } }"}
	consoleID, tenantID := bob.console.Extra("id_token").(string), bob.tenant.Extra("id_token").(string)
	for name, a := range map[string]answer{
		"console id_token at /auth/me":        call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", consoleID, nil),
		"console id_token at /customers":      call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/customers", consoleID, nil),
		"console id_token at /graphql":        call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", consoleID, gql),
		"instance id_token at the data API":   call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", tenantID, nil),
		"instance id_token at tenant graphql": call(t, nil, http.MethodPost, m.Config.InstanceURL+"/graphql", tenantID, dataGQL),
		"instance token at the console":       call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", bob.tenant.AccessToken, nil),
		"console token at the data API":       call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", bob.console.AccessToken, nil),
		"console token at tenant graphql":     call(t, nil, http.MethodPost, m.Config.InstanceURL+"/graphql", bob.console.AccessToken, dataGQL),
	} {
		wantRefused(t, name, a)
		if !strings.Contains(a.challenge, `error="invalid_token"`) {
			t.Errorf("%s: challenge %q does not say invalid_token", name, a.challenge)
		}
	}
	// the tokens themselves are fine where they belong
	wantAllowed(t, apis(t, m, m.Config.ConsoleURL, bob))
}

// syncBuffer is a log sink tests read while servers write to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Refused credentials leave no trace of themselves in the logs: neither a
// token nor a signature part of one, whatever was wrong with it.
//
// attack: tokens-in-logs
func TestAttackNoTokensInLogs(t *testing.T) {
	// serial: sets the process-wide slog logger to read what every request logs
	logs := &syncBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	bob := signIn(t, m, "bob@acme.example")
	secrets := []string{bob.console.AccessToken, bob.tenant.AccessToken, bob.console.Extra("id_token").(string),
		bob.tenant.Extra("id_token").(string), bob.tenant.RefreshToken}
	// wrong tokens in every place, then the right ones after a suspension
	call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", bob.console.Extra("id_token").(string), nil)
	call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", bob.tenant.Extra("id_token").(string), nil)
	call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", bob.tenant.AccessToken, nil)
	call(t, nil, http.MethodPost, m.Config.InstanceURL+"/auth/idp/callback", "", tenant.CallbackRequest{
		IDToken: bob.tenant.Extra("id_token").(string), AccessToken: bob.console.AccessToken, Nonce: "nonce-1"})
	call(t, nil, http.MethodPost, m.Config.InstanceURL+"/auth/idp/callback", "", tenant.CallbackRequest{
		IDToken: bob.console.Extra("id_token").(string), AccessToken: bob.tenant.AccessToken, Nonce: "wrong"})
	adminCall(t, m, admin.AccessToken, http.MethodPost, "/users/"+demoBobID+"/suspend", nil)
	apis(t, m, m.Config.ConsoleURL, bob)
	got := logs.String()
	if !strings.Contains(got, "session refused") || !strings.Contains(got, "status=401") {
		t.Fatalf("the refusals were not logged at all; the test is not looking at the right logs:\n%.2000s", got)
	}
	for _, s := range secrets {
		parts := strings.Split(s, ".")
		for _, p := range append(parts, s) {
			if len(p) >= 16 && strings.Contains(got, p) {
				t.Fatalf("the logs hold a token or a part of one (%.20s…)", p)
			}
		}
	}
}
