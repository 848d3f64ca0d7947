package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
)

// tokenAnswer is the token endpoint's answer.
type tokenAnswer struct {
	status int
	body   map[string]any
}

func (a tokenAnswer) accessToken() string { s, _ := a.body["access_token"].(string); return s }
func (a tokenAnswer) errorCode() string   { s, _ := a.body["error"].(string); return s }

// clientCredentials asks the provider of m for a client_credentials token;
// basic sends id and secret as HTTP Basic, otherwise they (and extra) go in
// the form.
func clientCredentials(t *testing.T, m *Main, id, secret string, basic bool, extra url.Values) tokenAnswer {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}}
	for k, v := range extra {
		form[k] = v
	}
	if !basic && secret != "" {
		form.Set("client_id", id)
		form.Set("client_secret", secret)
	}
	req, _ := http.NewRequest(http.MethodPost, m.Config.IssuerURL+"/oauth/v2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return tokenAnswer{status: resp.StatusCode, body: out}
}

// clientAssertion is a private_key_jwt assertion of clientID signed by key.
func clientAssertion(t *testing.T, key *ecdsa.PrivateKey, clientID, aud string) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: "ci-1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	raw, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: clientID, Subject: clientID, Audience: jwt.Audience{aud},
		ID: randomID(), IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Minute))}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func randomID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return url.QueryEscape(string(b))
}

func publicJWKS(t *testing.T, key *ecdsa.PrivateKey) map[string]any {
	t.Helper()
	b, _ := json.Marshal(jose.JSONWebKey{Key: key.Public(), KeyID: "ci-1", Use: "sig", Algorithm: "ES256"})
	var k map[string]any
	_ = json.Unmarshal(b, &k)
	return map[string]any{"keys": []any{k}}
}

// A customer's service account acts as its principal: with a
// client_credentials token of the console's audience it is its role in its
// customer at the console API and GraphQL; with one for its instance's URL
// (RFC 8707 resource) at the data API. Rotating its secret or deleting it
// ends its tokens at once (D-service-accounts).
// spec: D-service-accounts
func TestServiceAccountCallsTheAPIs(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	code, sa := adminCall(t, m, admin.AccessToken, "POST", "/customers/"+DemoAcmeCustomerID+"/service-accounts",
		map[string]any{"name": "deployer", "role": "admin"})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, sa)
	}
	id, clientID, secret := sa["id"].(string), sa["clientId"].(string), sa["clientSecret"].(string)

	console := clientCredentials(t, m, clientID, secret, true, nil)
	if console.status != http.StatusOK || console.accessToken() == "" {
		t.Fatalf("client_credentials: %d %v", console.status, console.body)
	}
	code, me := adminCall(t, m, console.accessToken(), "GET", "/auth/me", nil)
	if code != http.StatusOK || me["role"] != "admin" || me["customerId"] != DemoAcmeCustomerID {
		t.Fatalf("the service account at /auth/me: %d %v", code, me)
	}
	gql := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", console.accessToken(),
		map[string]any{"query": "{ me { role customerId } }"})
	if gql.status != http.StatusOK || !strings.Contains(string(mustJSON(gql.body)), `"role":"admin"`) {
		t.Fatalf("the service account at GraphQL: %d %v", gql.status, gql.body)
	}
	data := clientCredentials(t, m, clientID, secret, true, url.Values{"resource": {m.Config.InstanceURL}})
	if data.status != http.StatusOK {
		t.Fatalf("a token for the instance: %d %v", data.status, data.body)
	}
	if a := call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", data.accessToken(), nil); a.status != http.StatusOK {
		t.Fatalf("the service account at the data API: %d %v", a.status, a.body)
	}
	// every token is for one API
	if a := call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", console.accessToken(), nil); a.status != http.StatusUnauthorized {
		t.Fatalf("the console's token at the data API: %d", a.status)
	}
	if code, _ := adminCall(t, m, data.accessToken(), "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("the data API's token at the console: %d", code)
	}
	// its writes are audited as its own
	if code, hook := adminCall(t, m, console.accessToken(), "POST", "/customers/"+DemoAcmeCustomerID+"/webhooks",
		map[string]any{"url": "https://hooks.acme.example/in", "events": []string{"*"}}); code != http.StatusCreated {
		t.Fatalf("the service account creates a webhook: %d %v", code, hook)
	}
	code, audit := adminCall(t, m, admin.AccessToken, "GET", "/audit-log?limit=20", nil)
	found := false
	for _, e := range audit["items"].([]any) {
		ev := e.(map[string]any)
		actor, _ := ev["actor"].(map[string]any)
		found = found || (actor["userId"] == me["userId"] && actor["role"] == "admin" && ev["kind"] == "admin.write" &&
			ev["action"] == "manage_customer_config")
	}
	if code != http.StatusOK || !found || me["userId"] == nil {
		t.Fatalf("no audit entry names the service account (%v): %d %v", me["userId"], code, audit)
	}

	t.Run("RotationEndsTokens", func(t *testing.T) {
		code, rot := adminCall(t, m, admin.AccessToken, "POST", "/service-accounts/"+id+"/rotate-secret", nil)
		if code != http.StatusOK {
			t.Fatalf("rotate: %d %v", code, rot)
		}
		if code, _ := adminCall(t, m, console.accessToken(), "GET", "/auth/me", nil); code != http.StatusUnauthorized {
			t.Fatalf("a token from before the rotation: %d", code)
		}
		if a := clientCredentials(t, m, clientID, secret, true, nil); a.errorCode() != "invalid_client" {
			t.Fatalf("the old secret: %d %v", a.status, a.body)
		}
		fresh := clientCredentials(t, m, clientID, rot["clientSecret"].(string), true, nil)
		if code, _ := adminCall(t, m, fresh.accessToken(), "GET", "/auth/me", nil); code != http.StatusOK {
			t.Fatalf("the new secret's token: %d", code)
		}
		if code, _ := adminCall(t, m, admin.AccessToken, "DELETE", "/service-accounts/"+id, nil); code != http.StatusNoContent {
			t.Fatalf("delete: %d", code)
		}
		if code, _ := adminCall(t, m, fresh.accessToken(), "GET", "/auth/me", nil); code != http.StatusUnauthorized {
			t.Fatalf("a deleted account's token: %d", code)
		}
	})
}

// Each service account authenticates only the way it is registered:
// client_secret_post refuses Basic, private_key_jwt refuses secrets, and a
// client assertion is accepted once, for this provider only. A customer's
// account cannot ask for another customer's API.
// attack: service-account-credentials
func TestAttackServiceAccountCredentials(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	create := func(body map[string]any) map[string]any {
		code, sa := adminCall(t, m, admin.AccessToken, "POST", "/customers/"+DemoGlobexCustomerID+"/service-accounts", body)
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, sa)
		}
		return sa
	}
	t.Run("SecretPost", func(t *testing.T) {
		sa := create(map[string]any{"name": "post", "role": "viewer", "authMethod": "client_secret_post"})
		if a := clientCredentials(t, m, sa["clientId"].(string), sa["clientSecret"].(string), true, nil); a.errorCode() != "invalid_client" {
			t.Fatalf("Basic for a client_secret_post client: %d %v", a.status, a.body)
		}
		if a := clientCredentials(t, m, sa["clientId"].(string), sa["clientSecret"].(string), false, nil); a.status != http.StatusOK {
			t.Fatalf("client_secret_post: %d %v", a.status, a.body)
		}
	})
	t.Run("PrivateKeyJWT", func(t *testing.T) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		sa := create(map[string]any{"name": "jwt", "role": "viewer", "authMethod": "private_key_jwt", "jwks": publicJWKS(t, key)})
		clientID := sa["clientId"].(string)
		assert := func(raw string) tokenAnswer {
			return clientCredentials(t, m, "", "", false, url.Values{"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
				"client_assertion": {raw}})
		}
		good := clientAssertion(t, key, clientID, m.Config.IssuerURL)
		if a := assert(good); a.status != http.StatusOK {
			t.Fatalf("private_key_jwt: %d %v", a.status, a.body)
		}
		if a := assert(good); a.errorCode() != "invalid_client" {
			t.Fatalf("a replayed assertion: %d %v", a.status, a.body)
		}
		if a := assert(clientAssertion(t, key, clientID, "https://other.example")); a.errorCode() != "invalid_client" {
			t.Fatalf("an assertion for another audience: %d %v", a.status, a.body)
		}
		other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if a := assert(clientAssertion(t, other, clientID, m.Config.IssuerURL)); a.errorCode() != "invalid_client" {
			t.Fatalf("an assertion signed by another key: %d %v", a.status, a.body)
		}
		if a := clientCredentials(t, m, clientID, sa["clientSecret"].(string), true, nil); a.errorCode() != "invalid_client" {
			t.Fatalf("a secret for a private_key_jwt client: %d %v", a.status, a.body)
		}
	})
	t.Run("OtherCustomersAPI", func(t *testing.T) {
		sa := create(map[string]any{"name": "nosy", "role": "admin"})
		a := clientCredentials(t, m, sa["clientId"].(string), sa["clientSecret"].(string), true, url.Values{"resource": {m.Config.InstanceURL}})
		if a.status == http.StatusOK || a.errorCode() != "invalid_target" {
			t.Fatalf("Globex's account asking for Acme's instance: %d %v", a.status, a.body)
		}
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// An instance created with appAuthMethod gets a confidential application
// (for a server-side web app that keeps a secret): the secret is answered
// once, the code flow still needs PKCE and the token endpoint the secret.
// A method the API does not offer is refused and nothing is made.
// spec: D-service-accounts
func TestConfidentialInstanceApplication(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	if code, out := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances", map[string]any{"customerId": DemoAcmeCustomerID,
		"name": "Acme portal", "url": "https://portal.acme.example", "appAuthMethod": "private_key_jwt"}); code != http.StatusBadRequest {
		t.Fatalf("an unsupported appAuthMethod = %d %v", code, out)
	}
	const base = "https://portal.acme.example"
	code, inst := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances", map[string]any{"customerId": DemoAcmeCustomerID,
		"name": "Acme portal", "url": base, "appAuthMethod": "client_secret_basic"})
	secret, _ := inst["clientSecret"].(string)
	if code != http.StatusCreated || secret == "" {
		t.Fatalf("create = %d %v", code, inst)
	}
	clientID := inst["connection"].(map[string]any)["oidcClientId"].(string)
	if _, again := adminCall(t, m, admin.AccessToken, http.MethodGet, "/instances/"+inst["id"].(string), nil); again["clientSecret"] != nil {
		t.Fatal("the secret is answered again")
	}

	redirect := base + "/auth/callback"
	cfg := oauth2.Config{ClientID: clientID, ClientSecret: secret, RedirectURL: redirect, Scopes: []string{"openid", "email"},
		Endpoint: oauth2.Endpoint{AuthURL: m.Config.IssuerURL + "/oauth/v2/authorize", TokenURL: m.Config.IssuerURL + "/oauth/v2/token",
			AuthStyle: oauth2.AuthStyleInHeader}}
	codeFor := func(verifier string) string {
		b := pageBrowser(redirect)
		_, page := fetchPage(t, b, http.MethodGet, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)), nil)
		resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", "bob@acme.example", "password", DemoPassword)
		loc, _ := url.Parse(resp.Header.Get("Location"))
		return loc.Query().Get("code")
	}
	verifier := oauth2.GenerateVerifier()
	if tok, err := cfg.Exchange(context.Background(), codeFor(verifier), oauth2.VerifierOption(verifier)); err != nil || tok.AccessToken == "" {
		t.Fatalf("code exchange with the secret: %v", err)
	}
	noSecret := cfg
	noSecret.ClientSecret = ""
	verifier = oauth2.GenerateVerifier()
	if _, err := noSecret.Exchange(context.Background(), codeFor(verifier), oauth2.VerifierOption(verifier)); err == nil {
		t.Fatal("a confidential application's code redeemed without its secret")
	}
}
