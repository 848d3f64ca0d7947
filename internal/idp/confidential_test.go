package idp

import (
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
)

// tokenPost posts form to the token endpoint, with Basic id:secret when id
// is set, and returns the status and answer.
func (ti *testIDP) tokenPost(t *testing.T, form url.Values, id, secret string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathToken, strings.NewReader(form.Encode()))
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

func assertionFor(t *testing.T, key *ecdsa.PrivateKey, clientID, aud string) string {
	t.Helper()
	signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}}, nil)
	now := time.Now()
	raw, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: clientID, Subject: clientID, Audience: jwt.Audience{aud},
		ID: randomToken(), IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Minute))}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Confidential web applications through the management API: a secret
// (shown once; basic or post as registered) or a private key; the code flow
// still needs PKCE, and a code is redeemed only with the client's own
// authentication.
// spec: D-service-accounts
func TestManagementConfidentialApplications(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	codeFor := func(clientID string) (flow, string) {
		r := ti.rp()
		r.cfg.ClientID = clientID
		f := newFlow()
		return f, ti.login(ti.browser(), r, f, alice, goodPass)
	}
	redeem := func(f flow, code, clientID string) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect},
			"code_verifier": {f.verifier}, "client_id": {clientID}}
	}
	t.Run("SecretPost", func(t *testing.T) {
		code, app := m.do(http.MethodPost, "/applications", map[string]any{"name": "Web", "kind": "web",
			"authMethod": "client_secret_post", "redirectUris": []string{appRedirect}})
		secret, _ := app["clientSecret"].(string)
		if code != http.StatusCreated || secret == "" || app["authMethod"] != "client_secret_post" {
			t.Fatalf("create = %d %v", code, app)
		}
		clientID := app["clientId"].(string)
		f, c := codeFor(clientID)
		if status, out := ti.tokenPost(t, redeem(f, c, clientID), clientID, secret); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
			t.Fatalf("Basic for a client_secret_post client: %d %v", status, out)
		}
		f, c = codeFor(clientID)
		form := redeem(f, c, clientID)
		form.Set("client_secret", "wrong")
		if status, _ := ti.tokenPost(t, form, "", ""); status == http.StatusOK {
			t.Fatal("a wrong secret redeemed a code")
		}
		f, c = codeFor(clientID)
		form = redeem(f, c, clientID)
		form.Set("client_secret", secret)
		if status, out := ti.tokenPost(t, form, "", ""); status != http.StatusOK || out["id_token"] == nil {
			t.Fatalf("client_secret_post: %d %v", status, out)
		}
		// a rotated secret: the old one stops
		_, rot := m.do(http.MethodPost, "/applications/"+app["appId"].(string)+"/rotate-secret", nil)
		f, c = codeFor(clientID)
		form = redeem(f, c, clientID)
		form.Set("client_secret", secret)
		if status, _ := ti.tokenPost(t, form, "", ""); status == http.StatusOK || rot["clientSecret"] == secret {
			t.Fatal("the secret from before the rotation still works")
		}
	})
	t.Run("PrivateKeyJWT", func(t *testing.T) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		pub, _ := json.Marshal(jose.JSONWebKey{Key: key.Public(), KeyID: "k1", Use: "sig"})
		code, app := m.do(http.MethodPost, "/applications", map[string]any{"name": "Web JWT", "kind": "web",
			"authMethod": "private_key_jwt", "jwks": map[string]any{"keys": []json.RawMessage{pub}}, "redirectUris": []string{appRedirect}})
		if code != http.StatusCreated || app["clientSecret"] != nil {
			t.Fatalf("create = %d %v", code, app)
		}
		clientID := app["clientId"].(string)
		f, c := codeFor(clientID)
		form := redeem(f, c, clientID)
		form.Set("client_assertion_type", ClientAssertionType)
		assertion := assertionFor(t, key, clientID, ti.issuer)
		form.Set("client_assertion", assertion)
		if status, out := ti.tokenPost(t, form, "", ""); status != http.StatusOK || out["access_token"] == nil {
			t.Fatalf("private_key_jwt code exchange: %d %v", status, out)
		}
		f, c = codeFor(clientID)
		form = redeem(f, c, clientID)
		form.Set("client_assertion_type", ClientAssertionType)
		form.Set("client_assertion", assertion) // the same assertion again
		if status, out := ti.tokenPost(t, form, "", ""); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
			t.Fatalf("a replayed assertion: %d %v", status, out)
		}
		if status, _ := ti.tokenPost(t, redeem(f, c, clientID), "", ""); status == http.StatusOK {
			t.Fatal("a private_key_jwt client redeemed a code without authenticating")
		}
	})
	t.Run("ErrPublicWithSecret", func(t *testing.T) {
		if code, _ := m.do(http.MethodPost, "/applications", map[string]any{"name": "P", "authMethod": "client_secret_basic",
			"redirectUris": []string{appRedirect}}); code != http.StatusBadRequest {
			t.Fatalf("a public application with a secret method: %d", code)
		}
	})
}
