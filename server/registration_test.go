package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// regCall sends a registration request (RFC 7591/7592) with bearer token
// (when set) and metadata (when set).
func regCall(t *testing.T, method, uri, token string, metadata any) (int, map[string]any) {
	t.Helper()
	var body *bytes.Reader
	if metadata != nil {
		b, _ := json.Marshal(metadata)
		body = bytes.NewReader(b)
	} else {
		body = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, uri, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if metadata != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// registrationToken makes an initial access token of Acme as the owner.
func registrationToken(t *testing.T, m *Main, owner string, in map[string]any) map[string]any {
	t.Helper()
	if in["expiresAt"] == nil {
		in["expiresAt"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	}
	code, tok := adminCall(t, m, owner, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/registration-tokens", in)
	if code != http.StatusCreated || tok["token"] == nil {
		t.Fatalf("create registration token: %d %v", code, tok)
	}
	return tok
}

// A customer's owner makes an initial access token; a client registers
// itself with it at the discovery's registration_endpoint, signs a user in,
// reads and updates its registration with its registration access token
// and deletes it. The console lists it among the customer's registered
// clients (REST and GraphQL); each step is in the customer's audit log.
// spec: D-dynamic-registration
func TestDynamicClientRegistration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	iat := registrationToken(t, m, owner.AccessToken, map[string]any{"name": "CLI tools", "kinds": []string{"public"},
		"redirectHosts": []string{"127.0.0.1", "*.acme.example"}, "maxUses": 3})
	code, list := adminCall(t, m, owner.AccessToken, http.MethodGet, "/customers/"+DemoAcmeCustomerID+"/registration-tokens", nil)
	if code != http.StatusOK || strings.Contains(string(mustJSON(list)), iat["token"].(string)) || len(list["items"].([]any)) != 1 {
		t.Fatalf("list: %d %v", code, list)
	}

	var disc map[string]any
	resp, err := http.Get(m.Config.IssuerURL + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(resp.Body).Decode(&disc)
	resp.Body.Close()
	endpoint, _ := disc["registration_endpoint"].(string)
	if endpoint != m.Config.IssuerURL+"/oauth/v2/register" {
		t.Fatalf("registration_endpoint = %v", disc["registration_endpoint"])
	}
	const redirect = "http://127.0.0.1:1/registered/cb"
	code, reg := regCall(t, http.MethodPost, endpoint, iat["token"].(string), map[string]any{"client_name": "Acme CLI",
		"redirect_uris": []string{redirect}, "token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"},
		"logo_uri": "https://ignored.example/logo.png"})
	if code != http.StatusCreated || reg["client_id"] == nil || reg["registration_access_token"] == nil || reg["client_secret"] != nil {
		t.Fatalf("register: %d %v", code, reg)
	}
	clientID, rat, uri := reg["client_id"].(string), reg["registration_access_token"].(string), reg["registration_client_uri"].(string)
	if uri != endpoint+"/"+clientID {
		t.Fatalf("registration_client_uri = %q", uri)
	}
	if tok, _ := demoLogin(t, m, clientID, redirect, "bob@acme.example"); tok.AccessToken == "" {
		t.Fatal("the registered client signed nobody in")
	}

	if code, got := regCall(t, http.MethodGet, uri, rat, nil); code != http.StatusOK || got["client_name"] != "Acme CLI" ||
		got["registration_access_token"] != nil {
		t.Fatalf("read: %d %v", code, got)
	}
	code, got := regCall(t, http.MethodPut, uri, rat, map[string]any{"client_id": clientID, "client_name": "Acme CLI 2",
		"redirect_uris": []string{redirect, "https://cli.acme.example/cb"}, "token_endpoint_auth_method": "none"})
	if code != http.StatusOK || got["client_name"] != "Acme CLI 2" || len(got["redirect_uris"].([]any)) != 2 {
		t.Fatalf("update: %d %v", code, got)
	}
	code, clients := adminCall(t, m, owner.AccessToken, http.MethodGet, "/customers/"+DemoAcmeCustomerID+"/registered-clients", nil)
	items, _ := clients["items"].([]any)
	if code != http.StatusOK || len(items) != 1 || items[0].(map[string]any)["registered"] != true ||
		items[0].(map[string]any)["clientId"] != clientID {
		t.Fatalf("registered clients: %d %v", code, clients)
	}
	gql := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", owner.AccessToken, map[string]any{
		"query":     `query($id: ID!) { customer(id: $id) { registeredClients { clientId name registered } registrationTokens { uses maxUses kinds } } }`,
		"variables": map[string]any{"id": DemoAcmeCustomerID}})
	if s := string(mustJSON(gql.body)); gql.status != http.StatusOK || !strings.Contains(s, clientID) || !strings.Contains(s, `"uses":1`) {
		t.Fatalf("GraphQL: %d %s", gql.status, s)
	}
	if code, _ := regCall(t, http.MethodDelete, uri, rat, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if code, _ := regCall(t, http.MethodGet, uri, rat, nil); code != http.StatusUnauthorized {
		t.Fatalf("read after delete: %d", code)
	}
	code, log := adminCall(t, m, owner.AccessToken, http.MethodGet, "/audit-log?limit=50", nil)
	s := string(mustJSON(log))
	for _, kind := range []string{"client.registered", "client.updated", "client.deleted", "registration_token.create"} {
		if code != http.StatusOK || !strings.Contains(s, kind) {
			t.Fatalf("the customer's audit log lacks %s: %d %.2000s", kind, code, s)
		}
	}
}

// Registrations refused: without an initial access token, with an unknown,
// revoked, expired or used-up one; metadata the token does not allow
// (another redirect host, a confidential client with a public-only token)
// or that is dangerous (jwks_uri, implicit, plain http to a remote host,
// private_key_jwt without keys). A refused registration uses nothing of the
// token. RFC 7592 management with another client's registration access
// token is refused and changes nothing.
// attack: client-registration
func TestAttackClientRegistration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	endpoint := m.Config.IssuerURL + "/oauth/v2/register"
	good := func(redirect string) map[string]any {
		return map[string]any{"redirect_uris": []string{redirect}, "token_endpoint_auth_method": "none"}
	}
	once := registrationToken(t, m, owner.AccessToken, map[string]any{"name": "once", "kinds": []string{"public"},
		"redirectHosts": []string{"app.acme.example"}, "maxUses": 1})
	token := once["token"].(string)

	for name, metadata := range map[string]map[string]any{
		"another redirect host":       good("https://evil.example/cb"),
		"a subdomain not named":       good("https://x.app.acme.example/cb"),
		"plain http to a remote host": good("http://app.acme.example/cb"),
		"a fragment":                  good("https://app.acme.example/cb#x"),
		"confidential with a public-only token": {"redirect_uris": []string{"https://app.acme.example/cb"},
			"token_endpoint_auth_method": "client_secret_basic"},
		"jwks_uri": {"redirect_uris": []string{"https://app.acme.example/cb"}, "token_endpoint_auth_method": "none",
			"jwks_uri": "http://169.254.169.254/keys"},
		"implicit": {"redirect_uris": []string{"https://app.acme.example/cb"}, "token_endpoint_auth_method": "none",
			"response_types": []string{"token"}},
		"password grant": {"redirect_uris": []string{"https://app.acme.example/cb"}, "token_endpoint_auth_method": "none",
			"grant_types": []string{"password"}},
		"client_credentials": {"redirect_uris": []string{"https://app.acme.example/cb"}, "token_endpoint_auth_method": "none",
			"grant_types": []string{"client_credentials"}},
		"no redirect URI": {"token_endpoint_auth_method": "none"},
	} {
		if code, body := regCall(t, http.MethodPost, endpoint, token, metadata); code != http.StatusBadRequest ||
			(body["error"] != "invalid_redirect_uri" && body["error"] != "invalid_client_metadata") {
			t.Errorf("%s: %d %v, want 400", name, code, body)
		}
	}
	// nothing of the token was used: its one registration still works, then it is used up
	code, first := regCall(t, http.MethodPost, endpoint, token, good("https://app.acme.example/cb"))
	if code != http.StatusCreated {
		t.Fatalf("the one registration: %d %v", code, first)
	}
	if code, body := regCall(t, http.MethodPost, endpoint, token, good("https://app.acme.example/cb")); code != http.StatusUnauthorized ||
		body["error"] != "invalid_token" {
		t.Fatalf("a used-up token: %d %v", code, body)
	}

	revoked := registrationToken(t, m, owner.AccessToken, map[string]any{"name": "revoked", "kinds": []string{"public"},
		"redirectHosts": []string{"app.acme.example"}, "maxUses": 5})
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/registration-tokens/"+revoked["id"].(string)+"/revoke", nil); code != http.StatusNoContent {
		t.Fatalf("revoke: %d", code)
	}
	expired := "iat_expired-" + randomID()
	if err := m.Store.CreateRegistrationToken(t.Context(), &store.RegistrationToken{ID: randomID(), CustomerID: DemoAcmeCustomerID,
		Name: "expired", TokenHash: platform.HashSecret(expired), AllowPublic: true, RedirectHosts: []string{"app.acme.example"},
		MaxUses: 5, CreatedBy: "seed", CreatedAt: time.Now().Add(-2 * time.Hour), ExpiresAt: time.Now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]string{"no token": "", "unknown token": "iat_" + strings.Repeat("0", 64),
		"revoked token": revoked["token"].(string), "expired token": expired} {
		if code, body := regCall(t, http.MethodPost, endpoint, tok, good("https://app.acme.example/cb")); code != http.StatusUnauthorized {
			t.Errorf("%s: %d %v, want 401", name, code, body)
		}
	}

	// RFC 7592 with another client's registration access token
	other := registrationToken(t, m, owner.AccessToken, map[string]any{"name": "other", "kinds": []string{"public"},
		"redirectHosts": []string{"app.acme.example"}, "maxUses": 5})
	_, second := regCall(t, http.MethodPost, endpoint, other["token"].(string), good("https://app.acme.example/other"))
	victim := first["registration_client_uri"].(string)
	stolen := second["registration_access_token"].(string)
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		var body any
		if method == http.MethodPut {
			body = map[string]any{"client_id": first["client_id"], "redirect_uris": []string{"https://app.acme.example/stolen"},
				"token_endpoint_auth_method": "none"}
		}
		if code, got := regCall(t, method, victim, stolen, body); code != http.StatusUnauthorized {
			t.Errorf("%s with another client's token: %d %v", method, code, got)
		}
		if code, got := regCall(t, method, victim, first["client_id"].(string), body); code != http.StatusUnauthorized {
			t.Errorf("%s with the client id as token: %d %v", method, code, got)
		}
	}
	if code, got := regCall(t, http.MethodGet, victim, first["registration_access_token"].(string), nil); code != http.StatusOK ||
		got["redirect_uris"].([]any)[0] != "https://app.acme.example/cb" {
		t.Fatalf("the victim's registration after the attempts: %d %v", code, got)
	}
	// a registration access token is no initial access token
	if code, _ := regCall(t, http.MethodPost, endpoint, stolen, good("https://app.acme.example/cb")); code != http.StatusUnauthorized {
		t.Fatalf("a registration access token as initial access token: %d", code)
	}
}

// Who may make initial access tokens: the customer's owner and admin, not
// its members (every role and scope: the route matrix of adminhttp). Inputs
// are checked.
// spec: D-dynamic-registration
func TestRegistrationTokenAdministration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	member, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	path := "/customers/" + DemoAcmeCustomerID + "/registration-tokens"
	valid := map[string]any{"name": "n", "kinds": []string{"public"}, "redirectHosts": []string{"app.example"}, "maxUses": 1,
		"expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	if code, _ := adminCall(t, m, member.AccessToken, http.MethodPost, path, valid); code != http.StatusForbidden {
		t.Fatalf("a member: %d", code)
	}
	for name, change := range map[string]map[string]any{
		"no kinds":        {"kinds": []string{}},
		"unknown kind":    {"kinds": []string{"service"}},
		"no hosts":        {"redirectHosts": []string{}},
		"a URL as host":   {"redirectHosts": []string{"https://app.example/"}},
		"a bare wildcard": {"redirectHosts": []string{"*.com"}},
		"past expiry":     {"expiresAt": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)},
		"two years":       {"expiresAt": time.Now().AddDate(2, 0, 0).UTC().Format(time.RFC3339)},
		"no uses":         {"maxUses": 0},
		"too many uses":   {"maxUses": 100000},
		"no name":         {"name": ""},
	} {
		in := map[string]any{}
		for k, v := range valid {
			in[k] = v
		}
		for k, v := range change {
			in[k] = v
		}
		if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, path, in); code != http.StatusBadRequest {
			t.Errorf("%s: %d %v, want 400", name, code, body)
		}
	}
	tok := registrationToken(t, m, owner.AccessToken, valid)
	if code, _ := adminCall(t, m, member.AccessToken, http.MethodPost, "/registration-tokens/"+tok["id"].(string)+"/revoke", nil); code != http.StatusForbidden {
		t.Fatalf("a member revokes: %d", code)
	}
}
