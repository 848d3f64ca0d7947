package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/store"
)

// secretExchange reports whether a code for the instance application
// clientID (callback base/auth/callback) is redeemed at the provider's token
// endpoint with secret.
func secretExchange(t *testing.T, m *Main, base, clientID, secret string) bool {
	t.Helper()
	redirect := base + "/auth/callback"
	cfg := oauth2.Config{ClientID: clientID, ClientSecret: secret, RedirectURL: redirect, Scopes: []string{"openid", "email"},
		Endpoint: oauth2.Endpoint{AuthURL: m.Config.IssuerURL + "/oauth/v2/authorize", TokenURL: m.Config.IssuerURL + "/oauth/v2/token",
			AuthStyle: oauth2.AuthStyleInHeader}}
	verifier := oauth2.GenerateVerifier()
	b := pageBrowser(redirect)
	_, page := fetchPage(t, b, http.MethodGet, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)), nil)
	resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", "bob@acme.example", "password", DemoPassword)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	code := loc.Query().Get("code")
	if code == "" {
		t.Fatalf("no code: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	tok, err := cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	return err == nil && tok.AccessToken != ""
}

// consoleGraphQL posts one GraphQL operation to the console with a bearer token.
func consoleGraphQL(t *testing.T, m *Main, token, query string, vars map[string]any) answer {
	t.Helper()
	return call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", token, map[string]any{"query": query, "variables": vars})
}

// gqlCode answers the first error's code of a GraphQL answer, "" without one.
func gqlCode(a answer) (string, string) {
	errs, _ := a.body["errors"].([]any)
	if len(errs) == 0 {
		return "", ""
	}
	e, _ := errs[0].(map[string]any)
	ext, _ := e["extensions"].(map[string]any)
	code, _ := ext["code"].(string)
	msg, _ := e["message"].(string)
	return code, msg
}

const rotateSecretMutation = `mutation($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }`

// createConfidentialInstance creates an Acme instance at base with a
// client_secret_basic application; it answers its id, client id and secret.
func createConfidentialInstance(t *testing.T, m *Main, token, base string) (string, string, string) {
	t.Helper()
	code, inst := adminCall(t, m, token, http.MethodPost, "/instances", map[string]any{"customerId": DemoAcmeCustomerID,
		"name": "Acme portal", "url": base, "appAuthMethod": "client_secret_basic"})
	secret, _ := inst["clientSecret"].(string)
	if code != http.StatusCreated || secret == "" {
		t.Fatalf("create = %d %v", code, inst)
	}
	return inst["id"].(string), inst["connection"].(map[string]any)["oidcClientId"].(string), secret
}

// A confidential instance application's client secret is replaced through
// REST and GraphQL: each new secret, answered once, is redeemed at the
// provider's token endpoint and the one before it stops at once; the client
// id stays. A public (PKCE) instance has no secret to replace: 409 with a
// sentence saying so.
// spec: D-service-accounts
func TestRotateInstanceSecret(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	const base = "https://portal.acme.example"
	id, clientID, first := createConfidentialInstance(t, m, admin.AccessToken, base)

	code, rot := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances/"+id+"/rotate-secret", nil)
	second, _ := rot["clientSecret"].(string)
	if code != http.StatusOK || second == "" || second == first || rot["clientId"] != clientID || rot["instanceId"] != id {
		t.Fatalf("REST rotate-secret = %d %v", code, rot)
	}
	if !secretExchange(t, m, base, clientID, second) {
		t.Fatal("the new secret is refused at the token endpoint")
	}
	if secretExchange(t, m, base, clientID, first) {
		t.Fatal("the secret from before the rotation still works")
	}
	if _, again := adminCall(t, m, admin.AccessToken, http.MethodGet, "/instances/"+id, nil); again["clientSecret"] != nil {
		t.Fatal("the secret is answered again")
	}

	g := consoleGraphQL(t, m, admin.AccessToken, rotateSecretMutation, map[string]any{"id": id})
	data, _ := g.body["data"].(map[string]any)
	out, _ := data["rotateInstanceSecret"].(map[string]any)
	third, _ := out["clientSecret"].(string)
	if g.status != http.StatusOK || third == "" || third == second || out["clientId"] != clientID {
		t.Fatalf("GraphQL rotateInstanceSecret = %d %v", g.status, g.body)
	}
	if !secretExchange(t, m, base, clientID, third) || secretExchange(t, m, base, clientID, second) {
		t.Fatal("after the GraphQL rotation: the new secret refused or the old one accepted")
	}

	// a public application has no secret
	code, pub := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances", map[string]any{"customerId": DemoAcmeCustomerID,
		"name": "Acme public", "url": "https://public.acme.example"})
	if code != http.StatusCreated {
		t.Fatalf("public create = %d %v", code, pub)
	}
	code, conflict := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances/"+pub["id"].(string)+"/rotate-secret", nil)
	detail, _ := conflict["error"].(map[string]any)
	if code != http.StatusConflict || !strings.Contains(strings.ToLower(toString(detail["detail"])), "public client") {
		t.Fatalf("public rotate-secret = %d %v, want 409 naming a public client", code, conflict)
	}
	g = consoleGraphQL(t, m, admin.AccessToken, rotateSecretMutation, map[string]any{"id": pub["id"]})
	if c, msg := gqlCode(g); c != "CONFLICT" || !strings.Contains(msg, "public client") {
		t.Fatalf("GraphQL public rotate = %v", g.body)
	}
}

// toString joins a JSON string or list of strings.
func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, s := range x {
			if s, ok := s.(string); ok {
				b.WriteString(s + " ")
			}
		}
		return b.String()
	}
	return ""
}

// Neither reader (manage_instances read only) nor account_manager (none,
// even on a granted customer) replaces an instance's client secret, through
// REST or GraphQL: refused, audited, and the secret keeps working.
// attack: instance-secret-rotation-unauthorized
func TestAttackInstanceSecretRotationUnauthorized(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	const base = "https://portal.acme.example"
	id, clientID, secret := createConfidentialInstance(t, m, admin.AccessToken, base)

	mustConsoleUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b1", DemoAdminOrgID, "rita@platform.example", "Rita Reader", "reader", "")
	am := mustConsoleUser(t, m, "2b7e4d10-0000-4000-8000-0000000000b2", DemoAdminOrgID, "manager@platform.example", "Manny Manager",
		"account_manager", "")
	if err := m.Store.PutGrant(context.Background(), false, &store.Grant{GranteeID: am.ID, TargetID: DemoAcmeCustomerID,
		GrantedBy: demoAdminID, GrantedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"rita@platform.example", "manager@platform.example"} {
		tok, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", email)
		if code, out := adminCall(t, m, tok.AccessToken, http.MethodPost, "/instances/"+id+"/rotate-secret", nil); code != http.StatusForbidden ||
			out["clientSecret"] != nil {
			t.Errorf("%s REST rotate-secret = %d %v, want 403", email, code, out)
		}
		g := consoleGraphQL(t, m, tok.AccessToken, rotateSecretMutation, map[string]any{"id": id})
		data, _ := g.body["data"].(map[string]any)
		if c, _ := gqlCode(g); c != "FORBIDDEN" || data["rotateInstanceSecret"] != nil {
			t.Errorf("%s GraphQL rotateInstanceSecret = %v, want FORBIDDEN", email, g.body)
		}
	}
	if !secretExchange(t, m, base, clientID, secret) {
		t.Fatal("the secret stopped working: a refused caller rotated it")
	}
}
