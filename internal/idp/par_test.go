package idp

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

	"github.com/platform/platform/internal/platform"
)

// pushParams are the parameters of a code flow request with PKCE for f.
func pushParams(clientID string, f flow) url.Values {
	return url.Values{"client_id": {clientID}, "response_type": {"code"}, "redirect_uri": {appRedirect},
		"scope": {"openid email"}, "state": {f.state}, "nonce": {f.nonce}, "code_challenge": {s256(f.verifier)},
		"code_challenge_method": {"S256"}}
}

// push posts form to the PAR endpoint, with Basic id:secret when id is set.
func (ti *testIDP) push(t *testing.T, form url.Values, id, secret string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathPAR, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (ti *testIDP) authorizeWith(clientID, requestURI string) string {
	return ti.issuer + PathAuthorize + "?" + url.Values{"client_id": {clientID}, "request_uri": {requestURI}}.Encode()
}

// A pushed request stands for its parameters at the authorization endpoint:
// the login runs, the code comes back with the pushed state and is redeemed
// with the pushed PKCE verifier.
// spec: D-service-accounts
func TestPushedAuthorizationRequest(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	f := newFlow()
	status, out := ti.push(t, pushParams(appClientID, f), "", "")
	uri, _ := out["request_uri"].(string)
	if status != http.StatusCreated || !strings.HasPrefix(uri, requestURIPrefix) || out["expires_in"] != float64(60) {
		t.Fatalf("push = %d %v", status, out)
	}
	b := ti.browser()
	_, page := b.get(ti.authorizeWith(appClientID, uri))
	resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
	q := callback(t, resp)
	if q.Get("code") == "" || q.Get("state") != f.state {
		t.Fatalf("callback = %v", q)
	}
	tok, err := ti.rp().exchange(f, q.Get("code"))
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("exchange: %v", err)
	}
}

// A request_uri is used once, only by the client that pushed it, and only
// for a minute; an application that requires PAR is refused a plain
// authorization request.
// attack: par-request-uri
func TestAttackPushedRequestURI(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ctx := context.Background()
	if err := ti.st.CreateApplication(ctx, &platform.Application{AppID: "app-2", ClientID: "other-app", Name: "Other",
		Kind: platform.AppPublic, RedirectURIs: []string{appRedirect}, RequirePAR: true, CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	_, out := ti.push(t, pushParams(appClientID, newFlow()), "", "")
	uri := out["request_uri"].(string)

	b := ti.browser()
	if resp, page := b.get(ti.authorizeWith("other-app", uri)); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "expired") {
		t.Fatalf("another client's request_uri = %d\n%.400s", resp.StatusCode, page)
	}
	if _, page := b.get(ti.authorizeWith(appClientID, uri)); !strings.Contains(page, `name="password"`) {
		t.Fatalf("the pushing client after another's attempt:\n%.400s", page)
	}
	if resp, _ := b.get(ti.authorizeWith(appClientID, uri)); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a request_uri used twice = %d", resp.StatusCode)
	}

	_, out = ti.push(t, pushParams(appClientID, newFlow()), "", "")
	ti.clock.offset += parLifetime + time.Second
	if resp, _ := b.get(ti.authorizeWith(appClientID, out["request_uri"].(string))); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("an expired request_uri = %d", resp.StatusCode)
	}
	ti.clock.offset = 0

	f := newFlow()
	plain := ti.issuer + PathAuthorize + "?" + pushParams("other-app", f).Encode()
	if resp, page := b.get(plain); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "push its sign-in requests") {
		t.Fatalf("a plain request for a require-PAR application = %d\n%.400s", resp.StatusCode, page)
	}
	_, out = ti.push(t, pushParams("other-app", f), "", "")
	if _, page := b.get(ti.authorizeWith("other-app", out["request_uri"].(string))); !strings.Contains(page, `name="password"`) {
		t.Fatalf("a pushed request of a require-PAR application:\n%.400s", page)
	}
}

// The PAR endpoint validates as the authorization endpoint does and
// authenticates confidential clients as the token endpoint does.
// attack: par-push
func TestAttackPushedRequests(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	_, web := m.do(http.MethodPost, "/applications", map[string]any{"name": "Web", "kind": "web", "redirectUris": []string{appRedirect}})
	webID, secret := web["clientId"].(string), web["clientSecret"].(string)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	_, keyed := m.do(http.MethodPost, "/applications", map[string]any{"name": "Keyed", "kind": "web", "authMethod": "private_key_jwt",
		"jwks": json.RawMessage(jwks), "redirectUris": []string{appRedirect}})
	keyedID := keyed["clientId"].(string)

	with := func(v url.Values, kv ...string) url.Values {
		out := url.Values{}
		for k, x := range v {
			out[k] = x
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				out.Del(kv[i])
			} else {
				out.Set(kv[i], kv[i+1])
			}
		}
		return out
	}
	base := pushParams(appClientID, newFlow())
	for name, tc := range map[string]struct {
		form       url.Values
		id, secret string
		status     int
		code       string
	}{
		"unregistered redirect":        {with(base, "redirect_uri", "http://127.0.0.1:1/evil"), "", "", 400, "invalid_request"},
		"no code challenge":            {with(base, "code_challenge", ""), "", "", 400, "invalid_request"},
		"plain challenge":              {with(base, "code_challenge_method", "plain"), "", "", 400, "invalid_request"},
		"request_uri inside":           {with(base, "request_uri", requestURIPrefix+"x"), "", "", 400, "invalid_request"},
		"unknown client":               {with(base, "client_id", "nobody"), "", "", 401, "invalid_client"},
		"public client with a secret":  {with(base, "client_secret", "x"), "", "", 401, "invalid_client"},
		"confidential without secret":  {with(base, "client_id", webID), "", "", 401, "invalid_client"},
		"confidential, wrong secret":   {with(base, "client_id", webID), webID, "wrong", 401, "invalid_client"},
		"client_id not the authorized": {base, webID, secret, 400, "invalid_request"},
		"keyed client with a secret":   {with(base, "client_id", keyedID, "client_secret", secret), "", "", 401, "invalid_client"},
	} {
		if status, out := ti.push(t, tc.form, tc.id, tc.secret); status != tc.status || out["error"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", name, status, out, tc.status, tc.code)
		}
	}
	if status, out := ti.push(t, with(base, "client_id", webID), webID, secret); status != http.StatusCreated {
		t.Fatalf("confidential client with its secret: %d %v", status, out)
	}
	assertion := assertionFor(t, key, keyedID, ti.issuer+PathPAR)
	form := with(base, "client_id", keyedID, "client_assertion_type", ClientAssertionType, "client_assertion", assertion)
	if status, out := ti.push(t, form, "", ""); status != http.StatusCreated {
		t.Fatalf("private_key_jwt client: %d %v", status, out)
	}
	if status, out := ti.push(t, form, "", ""); status != http.StatusUnauthorized {
		t.Fatalf("a replayed assertion at the PAR endpoint: %d %v", status, out)
	}
}
