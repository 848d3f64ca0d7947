package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/tenant"
	"github.com/platform/platform/internal/testkit"
)

// dpopAnswer is an API's answer to a DPoP request, with its nonce.
type dpopAnswer struct {
	answer
	nonce string
}

// dpopCall sends method uri with "Authorization: DPoP token" and the
// proof (when set), and a JSON body (when set).
func dpopCall(t *testing.T, method, uri, scheme, token, proof string, body any) dpopAnswer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, uri, rd)
	req.Header.Set("Authorization", scheme+" "+token)
	if proof != "" {
		req.Header.Set("DPoP", proof)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return dpopAnswer{answer{status: resp.StatusCode, challenge: resp.Header.Get("WWW-Authenticate"), body: out},
		resp.Header.Get("DPoP-Nonce")}
}

// boundServiceTokens makes a service account of Acme and answers its
// DPoP-bound tokens, bound to key, for the console and for the instance.
func boundServiceTokens(t *testing.T, m *Main, key *testkit.DPoPKey) (console, data string) {
	t.Helper()
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	code, sa := adminCall(t, m, admin.AccessToken, "POST", "/customers/"+DemoAcmeCustomerID+"/service-accounts",
		map[string]any{"name": "dpop-" + randomID(), "role": "admin"})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, sa)
	}
	tokenURL := m.Config.IssuerURL + "/oauth/v2/token"
	get := func(resource string) string {
		form := url.Values{"grant_type": {"client_credentials"}}
		if resource != "" {
			form.Set("resource", resource)
		}
		status, out := dpopTokenRequest(t, tokenURL, form, key, func(r *http.Request) {
			r.SetBasicAuth(sa["clientId"].(string), sa["clientSecret"].(string))
		})
		if status != http.StatusOK || out["token_type"] != "DPoP" {
			t.Fatalf("bound client_credentials: %d %v", status, out)
		}
		return out["access_token"].(string)
	}
	return get(""), get(m.Config.InstanceURL)
}

// A DPoP-bound token works at the console's REST and GraphQL APIs and at
// the data API with a proof of its key: the first request learns the
// server's nonce (401 use_dpop_nonce with DPoP-Nonce), the retry with it
// is served, at another replica too (the nonce is stateless).
// spec: D-dpop
func TestDPoPAtTheAPIs(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	replica := consoleReplica(t, m)
	key := testkit.NewDPoPKey(t)
	console, data := boundServiceTokens(t, m, key)

	me := m.Config.ConsoleURL + "/api/v1/auth/me"
	first := dpopCall(t, http.MethodGet, me, "DPoP", console, key.Proof(http.MethodGet, me, testkit.ProofOpts{AccessToken: console}), nil)
	if first.status != http.StatusUnauthorized || first.nonce == "" || !strings.HasPrefix(first.challenge, "DPoP ") ||
		!strings.Contains(first.challenge, `error="use_dpop_nonce"`) {
		t.Fatalf("without a nonce: %d %q nonce %q %v", first.status, first.challenge, first.nonce, first.body)
	}
	nonce := first.nonce
	proof := func(method, uri, token string) string {
		return key.Proof(method, uri, testkit.ProofOpts{AccessToken: token, Nonce: nonce})
	}
	if a := dpopCall(t, http.MethodGet, me, "DPoP", console, proof(http.MethodGet, me, console), nil); a.status != http.StatusOK || a.body["role"] != "admin" {
		t.Fatalf("console /auth/me: %d %v", a.status, a.body)
	}
	perms := m.Config.ConsoleURL + "/api/v1/me/permissions"
	if a := dpopCall(t, http.MethodGet, perms, "dpop", console, proof(http.MethodGet, perms, console), nil); a.status != http.StatusOK {
		t.Fatalf("console /me/permissions (scheme in lower case): %d %v", a.status, a.body)
	}
	gql := m.Config.ConsoleURL + "/graphql"
	if a := dpopCall(t, http.MethodPost, gql, "DPoP", console, proof(http.MethodPost, gql, console),
		map[string]any{"query": "{ me { role } }"}); a.status != http.StatusOK || !strings.Contains(string(mustJSON(a.body)), `"role":"admin"`) {
		t.Fatalf("console GraphQL: %d %v", a.status, a.body)
	}
	other := replica + "/api/v1/auth/me"
	// the replica's own URL is not the console's public URL: its htu is the public one
	if a := dpopCall(t, http.MethodGet, other, "DPoP", console, proof(http.MethodGet, me, console), nil); a.status != http.StatusOK {
		t.Fatalf("the replica with the first's nonce: %d %v", a.status, a.body)
	}
	tenants := m.Config.InstanceURL + "/api/v1/me/tenants"
	first = dpopCall(t, http.MethodGet, tenants, "DPoP", data, key.Proof(http.MethodGet, tenants, testkit.ProofOpts{AccessToken: data}), nil)
	if first.status != http.StatusUnauthorized || first.nonce == "" {
		t.Fatalf("data API without a nonce: %d %v", first.status, first.body)
	}
	nonce = first.nonce
	if a := dpopCall(t, http.MethodGet, tenants, "DPoP", data, proof(http.MethodGet, tenants, data), nil); a.status != http.StatusOK {
		t.Fatalf("data API: %d %v", a.status, a.body)
	}
	tgql := m.Config.InstanceURL + "/graphql"
	if a := dpopCall(t, http.MethodPost, tgql, "DPoP", data, proof(http.MethodPost, tgql, data), dataGQL); a.status != http.StatusOK {
		t.Fatalf("tenant GraphQL: %d %v", a.status, a.body)
	}
}

// What the APIs refuse of DPoP: a bound token as a bearer token, without a
// proof, with a replayed proof (at the same and at another replica), with
// a proof for another URI or method, of another token (ath), stale, without
// a nonce or with an old or forged one, of another key; an unbound token
// with the DPoP scheme. Every refusal is a 401 with a challenge.
// attack: dpop-proof-at-apis
func TestAttackDPoPAtTheAPIs(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	replica := consoleReplica(t, m)
	key := testkit.NewDPoPKey(t)
	console, _ := boundServiceTokens(t, m, key)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")

	me := m.Config.ConsoleURL + "/api/v1/auth/me"
	nonce := dpopCall(t, http.MethodGet, me, "DPoP", console, key.Proof(http.MethodGet, me, testkit.ProofOpts{AccessToken: console}), nil).nonce
	secretsKey, err := m.Config.secretsKey()
	if err != nil {
		t.Fatal(err)
	}
	old := dpop.NewNonces(secretsKey).Issue(time.Now().Add(-3 * dpop.NonceStep))
	forged := dpop.NewNonces([]byte("another key entirely, 32 bytes!!")).Issue(time.Now())
	good := func(o testkit.ProofOpts) string {
		if o.AccessToken == "" {
			o.AccessToken = console
		}
		if o.Nonce == "" {
			o.Nonce = nonce
		}
		return key.Proof(http.MethodGet, me, o)
	}

	if a := call(t, nil, http.MethodGet, me, console, nil); a.status != http.StatusUnauthorized || !strings.Contains(a.challenge, "invalid_token") {
		t.Fatalf("a bound token as Bearer: %d %q %v", a.status, a.challenge, a.body)
	}
	if a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", console, map[string]any{"query": "{ me { role } }"}); a.status != http.StatusUnauthorized {
		t.Fatalf("a bound token as Bearer at GraphQL: %d %v", a.status, a.body)
	}
	used := good(testkit.ProofOpts{})
	if a := dpopCall(t, http.MethodGet, me, "DPoP", console, used, nil); a.status != http.StatusOK {
		t.Fatalf("a good proof: %d %v", a.status, a.body)
	}
	for name, c := range map[string]struct {
		uri, scheme, token, proof string
	}{
		"no proof":                 {me, "DPoP", console, ""},
		"replayed proof":           {me, "DPoP", console, used},
		"replayed at a replica":    {replica + "/api/v1/auth/me", "DPoP", console, used},
		"proof for another URI":    {me, "DPoP", console, key.Proof(http.MethodGet, m.Config.ConsoleURL+"/api/v1/me/permissions", testkit.ProofOpts{AccessToken: console, Nonce: nonce})},
		"proof for another method": {me, "DPoP", console, key.Proof(http.MethodPost, me, testkit.ProofOpts{AccessToken: console, Nonce: nonce})},
		"proof of another token":   {me, "DPoP", console, good(testkit.ProofOpts{AccessToken: admin.AccessToken})},
		"proof without ath":        {me, "DPoP", console, good(testkit.ProofOpts{Claims: map[string]any{"ath": nil}})},
		"stale proof":              {me, "DPoP", console, good(testkit.ProofOpts{IssuedAt: time.Now().Add(-10 * time.Minute)})},
		"proof without a nonce":    {me, "DPoP", console, good(testkit.ProofOpts{Claims: map[string]any{"nonce": nil}})},
		"old nonce":                {me, "DPoP", console, good(testkit.ProofOpts{Nonce: old})},
		"forged nonce":             {me, "DPoP", console, good(testkit.ProofOpts{Nonce: forged})},
		"another key's proof":      {me, "DPoP", console, testkit.NewDPoPKey(t).Proof(http.MethodGet, me, testkit.ProofOpts{AccessToken: console, Nonce: nonce})},
		"unbound token as DPoP":    {me, "DPoP", admin.AccessToken, key.Proof(http.MethodGet, me, testkit.ProofOpts{AccessToken: admin.AccessToken, Nonce: nonce})},
	} {
		a := dpopCall(t, http.MethodGet, c.uri, c.scheme, c.token, c.proof, nil)
		if a.status != http.StatusUnauthorized || !strings.HasPrefix(a.challenge, "DPoP ") || a.body["code"] != float64(401) {
			t.Errorf("%s: %d %q %v, want 401 with a DPoP challenge", name, a.status, a.challenge, a.body)
		}
	}
	// the unbound token still works as what it is
	if a := call(t, nil, http.MethodGet, me, admin.AccessToken, nil); a.status != http.StatusOK {
		t.Fatalf("the unbound token as Bearer: %d %v", a.status, a.body)
	}
}

// An instance's application may require DPoP: set at creation through
// REST, shown on its connection, changed through GraphQL; the provider's
// application follows, and its token requests without a proof are refused.
// spec: D-dpop
func TestInstanceRequiresDPoP(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	code, inst := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances",
		map[string]any{"customerId": DemoAcmeCustomerID, "name": "Acme DPoP", "url": "https://dpop.acme.example",
			"appAuthMethod": "client_secret_basic", "requireDpop": true})
	if code != http.StatusCreated {
		t.Fatalf("create instance = %d %v", code, inst)
	}
	conn := inst["connection"].(map[string]any)
	clientID, secret := conn["oidcClientId"].(string), inst["clientSecret"].(string)
	app, err := m.Store.ApplicationByClientID(t.Context(), clientID)
	if err != nil || !app.RequireDPoP || conn["requireDpop"] != true {
		t.Fatalf("the application = %+v, %v; connection %v", app, err, conn)
	}
	// a confidential client's refresh: without a proof refused before anything else
	tokenURL := m.Config.IssuerURL + "/oauth/v2/token"
	req, _ := http.NewRequest(http.MethodPost, tokenURL, strings.NewReader(url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {"unknown"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || out["error"] != "invalid_dpop_proof" {
		t.Fatalf("a token request without a proof: %d %v", resp.StatusCode, out)
	}

	gql := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", admin.AccessToken, map[string]any{
		"query":     `mutation($id: ID!) { updateInstance(id: $id, input: {name: "Acme DPoP", url: "https://dpop.acme.example", requireDpop: false}) { connection { requireDpop } } }`,
		"variables": map[string]any{"id": inst["id"]}})
	if gql.status != http.StatusOK || !strings.Contains(string(mustJSON(gql.body)), `"requireDpop":false`) {
		t.Fatalf("updateInstance: %d %v", gql.status, gql.body)
	}
	if app, err = m.Store.ApplicationByClientID(t.Context(), clientID); err != nil || app.RequireDPoP {
		t.Fatalf("the application after the update = %+v, %v", app, err)
	}
	// an update that does not name it keeps it
	code, got := adminCall(t, m, admin.AccessToken, http.MethodPut, "/instances/"+inst["id"].(string),
		map[string]any{"name": "Acme DPoP 2", "url": "https://dpop.acme.example", "requireDpop": true})
	if code != http.StatusOK || got["connection"].(map[string]any)["requireDpop"] != true {
		t.Fatalf("PUT with requireDpop: %d %v", code, got)
	}
	code, got = adminCall(t, m, admin.AccessToken, http.MethodPut, "/instances/"+inst["id"].(string),
		map[string]any{"name": "Acme DPoP 3", "url": "https://dpop.acme.example"})
	if app, err = m.Store.ApplicationByClientID(t.Context(), clientID); code != http.StatusOK || err != nil || !app.RequireDPoP ||
		got["connection"].(map[string]any)["requireDpop"] != true {
		t.Fatalf("PUT without requireDpop: %d %v; application %+v", code, got, app)
	}
}

// boundCodeTokens signs email in at clientID (redirect) and exchanges the
// code with a DPoP proof of key: the token answer.
func boundCodeTokens(t *testing.T, m *Main, key *testkit.DPoPKey, clientID, redirect, email string) map[string]any {
	t.Helper()
	verifier := oauth2.GenerateVerifier()
	b := pageBrowser(redirect)
	cfg := oauth2.Config{ClientID: clientID, RedirectURL: redirect, Scopes: []string{"openid", "email"},
		Endpoint: oauth2.Endpoint{AuthURL: m.Config.IssuerURL + "/oauth/v2/authorize", TokenURL: m.Config.IssuerURL + "/oauth/v2/token"}}
	_, page := fetchPage(t, b, http.MethodGet, cfg.AuthCodeURL("state-1", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("nonce", "nonce-1"), oauth2.SetAuthURLParam("login_hint", email)), nil)
	resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", email, "password", DemoPassword)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	code := loc.Query().Get("code")
	if code == "" {
		t.Fatalf("no code: %v", loc)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect},
		"client_id": {clientID}, "code_verifier": {verifier}}
	status, out := dpopTokenRequest(t, cfg.Endpoint.TokenURL, form, key, nil)
	if status != http.StatusOK || out["token_type"] != "DPoP" {
		t.Fatalf("bound code exchange: %d %v", status, out)
	}
	return out
}

// dpopTokenRequest posts form to the token endpoint with a proof of key, as
// a DPoP client does: the first proof carries no nonce and is answered
// use_dpop_nonce with the provider's DPoP-Nonce, the retry carries it.
// edit adds client authentication. It answers the retry's status and body.
func dpopTokenRequest(t *testing.T, tokenURL string, form url.Values, key *testkit.DPoPKey, edit func(*http.Request)) (int, map[string]any) {
	t.Helper()
	post := func(nonce string) (int, map[string]any, string) {
		req, _ := http.NewRequest(http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if edit != nil {
			edit(req)
		}
		req.Header.Set("DPoP", key.Proof(http.MethodPost, tokenURL, testkit.ProofOpts{Nonce: nonce}))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out, resp.Header.Get("DPoP-Nonce")
	}
	status, out, nonce := post("")
	if status != http.StatusBadRequest || out["error"] != "use_dpop_nonce" || nonce == "" {
		t.Fatalf("a proof without the provider's nonce: %d %v (DPoP-Nonce %q)", status, out, nonce)
	}
	status, out, _ = post(nonce)
	return status, out
}

// The tenant web app's session is a cookie: a DPoP-bound access token
// posted to its callback opens none (the session would let anyone with the
// cookie use what only the key's holder may). The same sign-in's bearer
// tokens do.
// attack: dpop-bound-token-to-session
func TestAttackDPoPBoundTokenToSession(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	key := testkit.NewDPoPKey(t)
	tok := boundCodeTokens(t, m, key, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	a := call(t, nil, http.MethodPost, m.Config.InstanceURL+"/auth/idp/callback", "", tenant.CallbackRequest{
		IDToken: tok["id_token"].(string), AccessToken: tok["access_token"].(string), Nonce: "nonce-1"})
	if a.status != http.StatusUnauthorized && a.status != http.StatusBadRequest {
		t.Fatalf("a session from a bound token = %d %v", a.status, a.body)
	}
	s := signIn(t, m, "bob@acme.example") // bearer tokens make a session
	if a := call(t, s.session, http.MethodGet, m.Config.InstanceURL+"/auth/session", "", nil); a.status != http.StatusOK {
		t.Fatalf("a bearer sign-in's session: %d %v", a.status, a.body)
	}
}
