package idp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/platform/platform/internal/testkit"
)

// tokenCall posts form to the token endpoint with the DPoP proofs given
// and answers the status and the JSON body.
func (ti *testIDP) tokenCall(form url.Values, proofs ...string) (int, map[string]any) {
	ti.t.Helper()
	return ti.tokenCallWith(form, nil, proofs...)
}

// tokenCallWith is tokenCall with edit applied to the request (client
// authentication).
func (ti *testIDP) tokenCallWith(form url.Values, edit func(*http.Request), proofs ...string) (int, map[string]any) {
	ti.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathToken, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if edit != nil {
		edit(req)
	}
	for _, p := range proofs {
		req.Header.Add("DPoP", p)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ti.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// dpopNonce answers the token endpoint's current DPoP nonce, as a client
// learns it: a proof without one is refused use_dpop_nonce, with the nonce
// in the DPoP-Nonce header (RFC 9449 section 8).
func (ti *testIDP) dpopNonce() string {
	ti.t.Helper()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"unknown"}, "client_id": {appClientID}}
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathToken, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("DPoP", testkit.NewDPoPKey(ti.t).Proof(http.MethodPost, ti.issuer+PathToken, testkit.ProofOpts{}))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ti.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	nonce := resp.Header.Get("DPoP-Nonce")
	if resp.StatusCode != http.StatusBadRequest || body["error"] != "use_dpop_nonce" || nonce == "" {
		ti.t.Fatalf("a proof without a nonce: %d %v, DPoP-Nonce %q", resp.StatusCode, body, nonce)
	}
	return nonce
}

// codeForm signs alice in with a fresh flow and answers the form of its
// code exchange.
func (ti *testIDP) codeForm(r *rp) url.Values {
	ti.t.Helper()
	f := newFlow()
	code := ti.login(ti.browser(), r, f, alice, goodPass)
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect},
		"client_id": {appClientID}, "code_verifier": {f.verifier}}
}

// jwtClaims reads a JWT's claims without verifying it.
func jwtClaims(t *testing.T, raw string) map[string]any {
	t.Helper()
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %.40q", raw)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func cnfJKT(t *testing.T, accessToken string) string {
	t.Helper()
	cnf, _ := jwtClaims(t, accessToken)["cnf"].(map[string]any)
	jkt, _ := cnf["jkt"].(string)
	return jkt
}

// A code exchange with a DPoP proof binds the access token (cnf.jkt,
// token_type DPoP) and the public client's refresh token to the proof's
// key; a refresh needs a proof of the same key; without a proof tokens
// stay bearer tokens. Discovery names the proof algorithms.
// spec: D-dpop
func TestDPoPBindsTokens(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	resp, err := http.Get(ti.issuer + DiscoveryPath)
	if err != nil {
		t.Fatal(err)
	}
	var disc struct {
		Algs []string `json:"dpop_signing_alg_values_supported"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&disc)
	resp.Body.Close()
	if !slices.Contains(disc.Algs, "ES256") || slices.Contains(disc.Algs, "HS256") || slices.Contains(disc.Algs, "none") {
		t.Fatalf("dpop_signing_alg_values_supported = %v", disc.Algs)
	}

	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	key := testkit.NewDPoPKey(t)
	status, body := ti.tokenCall(ti.codeForm(r), key.Proof(http.MethodPost, ti.issuer+PathToken, testkit.ProofOpts{Nonce: n}))
	if status != http.StatusOK || body["token_type"] != "DPoP" {
		t.Fatalf("bound exchange: %d %v", status, body)
	}
	at, _ := body["access_token"].(string)
	if got := cnfJKT(t, at); got != key.JKT() {
		t.Fatalf("cnf.jkt = %q, want %q", got, key.JKT())
	}
	// the provider's userinfo takes bearer tokens only: the bound token is refused there
	req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathUserinfo, nil)
	req.Header.Set("Authorization", "Bearer "+at)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("userinfo with the bound token as bearer: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	refresh, _ := body["refresh_token"].(string)
	rt, err := ti.st.RefreshToken(context.Background(), hashSecret(refresh), time.Now())
	if err != nil || rt.DPoPJKT != key.JKT() {
		t.Fatalf("stored refresh token binding = %+v, %v", rt, err)
	}
	// the htu is compared normalised: an upper-case scheme and host, a query are the same URI
	upper := strings.ToUpper(ti.issuer) + PathToken + "?x=1"
	status, body = ti.tokenCall(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh},
		"client_id": {appClientID}}, key.Proof(http.MethodPost, upper, testkit.ProofOpts{Nonce: n}))
	if status != http.StatusOK || body["token_type"] != "DPoP" || cnfJKT(t, body["access_token"].(string)) != key.JKT() {
		t.Fatalf("bound refresh: %d %v", status, body)
	}

	// without a proof: a bearer token, no cnf, an unbound refresh token
	status, body = ti.tokenCall(ti.codeForm(r))
	if status != http.StatusOK || body["token_type"] != "Bearer" || cnfJKT(t, body["access_token"].(string)) != "" {
		t.Fatalf("bearer exchange: %d %v", status, body)
	}
	req, _ = http.NewRequest(http.MethodGet, ti.issuer+PathUserinfo, nil)
	req.Header.Set("Authorization", "Bearer "+body["access_token"].(string))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("userinfo with a bearer token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	status, body = ti.tokenCall(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {body["refresh_token"].(string)},
		"client_id": {appClientID}})
	if status != http.StatusOK || body["token_type"] != "Bearer" {
		t.Fatalf("bearer refresh: %d %v", status, body)
	}
}

// An application that requires DPoP gets no token without a proof.
// spec: D-dpop
func TestDPoPRequiredByApplication(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	ctx := context.Background()
	app, err := ti.st.ApplicationByClientID(ctx, appClientID)
	if err != nil {
		t.Fatal(err)
	}
	app.RequireDPoP = true
	if err := ti.st.UpdateApplication(ctx, app); err != nil {
		t.Fatal(err)
	}
	r := ti.rp()
	if status, body := ti.tokenCall(ti.codeForm(r)); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("exchange without a proof: %d %v", status, body)
	}
	key := testkit.NewDPoPKey(t)
	if status, body := ti.tokenCall(ti.codeForm(r), key.Proof(http.MethodPost, ti.issuer+PathToken, testkit.ProofOpts{Nonce: n})); status != http.StatusOK || body["token_type"] != "DPoP" {
		t.Fatalf("exchange with a proof: %d %v", status, body)
	}
}

// Proofs the token endpoint refuses: a replayed one, one for another URI
// or method, a stale or future one, one without typ dpop+jwt, with a
// private key, of a symmetric algorithm, two proofs at once. Each leaves the
// code unused: the same code then works with a good proof.
// attack: dpop-proof-token-endpoint
func TestAttackDPoPProofAtTokenEndpoint(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	r := ti.rp()
	key := testkit.NewDPoPKey(t)
	htu := ti.issuer + PathToken
	used := key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})
	if status, body := ti.tokenCall(ti.codeForm(r), used); status != http.StatusOK {
		t.Fatalf("first use: %d %v", status, body)
	}
	for name, proofs := range map[string][]string{
		"replayed jti":  {used},
		"other htu":     {key.Proof(http.MethodPost, ti.issuer+PathPAR, testkit.ProofOpts{Nonce: n})},
		"other htm":     {key.Proof(http.MethodGet, htu, testkit.ProofOpts{Nonce: n})},
		"stale iat":     {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, IssuedAt: time.Now().Add(-10 * time.Minute)})},
		"future iat":    {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, IssuedAt: time.Now().Add(10 * time.Minute)})},
		"no typ":        {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"typ": nil}})},
		"typ JWT":       {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"typ": "JWT"}})},
		"private jwk":   {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"jwk": key.PrivateJWK()}})},
		"no jwk":        {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"jwk": nil}})},
		"alg HS256":     {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"alg": "HS256"}})},
		"alg none":      {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"alg": "none"}})},
		"another's jwk": {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Header: map[string]any{"jwk": testkit.NewDPoPKey(t).JWK()}})},
		"no jti":        {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Claims: map[string]any{"jti": nil}})},
		"no iat":        {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n, Claims: map[string]any{"iat": nil}})},
		"two proofs":    {key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n}), key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})},
		"not a JWS":     {"not.a-proof"},
	} {
		form := ti.codeForm(r)
		if status, body := ti.tokenCall(form, proofs...); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
			t.Fatalf("%s: %d %v, want 400 invalid_dpop_proof", name, status, body)
		}
		if status, body := ti.tokenCall(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusOK {
			t.Fatalf("%s: the code afterwards: %d %v", name, status, body)
		}
	}
}

// A public client's bound refresh token is refreshed only with a proof of
// its key: not without a proof, not with another key's, not as a retry
// within the refresh grace either.
// attack: dpop-bound-refresh
func TestAttackDPoPBoundRefresh(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	r := ti.rp(gooidc.ScopeOpenID, gooidc.ScopeOfflineAccess)
	key, other := testkit.NewDPoPKey(t), testkit.NewDPoPKey(t)
	htu := ti.issuer + PathToken
	status, body := ti.tokenCall(ti.codeForm(r), key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n}))
	if status != http.StatusOK {
		t.Fatalf("exchange: %d %v", status, body)
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {body["refresh_token"].(string)}, "client_id": {appClientID}}
	if status, body := ti.tokenCall(form); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("refresh without a proof: %d %v", status, body)
	}
	if status, body := ti.tokenCall(form, other.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("refresh with another key's proof: %d %v", status, body)
	}
	if status, body := ti.tokenCall(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusOK {
		t.Fatalf("refresh with the key's proof: %d %v", status, body)
	}
	// the retry of a lost answer (the refresh grace) is the key holder's only
	if status, body := ti.tokenCall(form, other.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("retry with another key's proof: %d %v", status, body)
	}
	if status, body := ti.tokenCall(form); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("retry without a proof: %d %v", status, body)
	}
}

// The management API sets and answers requireDpop; an update without it
// turns it off (PUT replaces the settings).
// spec: D-dpop
func TestManagementRequireDPoP(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	code, app := m.do(http.MethodPost, "/applications", map[string]any{"name": "Bound", "redirectUris": []string{appRedirect},
		"requireDpop": true})
	if code != http.StatusCreated || app["requireDpop"] != true {
		t.Fatalf("create = %d %v", code, app)
	}
	stored, err := ti.st.ApplicationByClientID(context.Background(), app["clientId"].(string))
	if err != nil || !stored.RequireDPoP {
		t.Fatalf("stored = %+v, %v", stored, err)
	}
	code, app = m.do(http.MethodPut, "/applications/"+app["appId"].(string), map[string]any{"name": "Bound",
		"redirectUris": []string{appRedirect}})
	if code != http.StatusOK || app["requireDpop"] != false {
		t.Fatalf("update = %d %v", code, app)
	}
}

// The management API takes bearer tokens only: the management client's
// DPoP-bound token is refused there as a bearer token.
// attack: dpop-bound-token-at-management-api
func TestAttackDPoPBoundTokenAtManagementAPI(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	ti.mgmtClient(t, true)
	key := testkit.NewDPoPKey(t)
	form := url.Values{"grant_type": {"client_credentials"}}
	basic := func(r *http.Request) { r.SetBasicAuth(mgmtClientID, mgmtSecret) }
	status, body := ti.tokenCallWith(form, basic, key.Proof(http.MethodPost, ti.issuer+PathToken, testkit.ProofOpts{Nonce: n}))
	if status != http.StatusOK || body["token_type"] != "DPoP" {
		t.Fatalf("bound client_credentials: %d %v", status, body)
	}
	call := func(token string) int {
		req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathManagement+"/applications/app-1", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := call(body["access_token"].(string)); code != http.StatusUnauthorized {
		t.Fatalf("the bound token as bearer: %d", code)
	}
	_, body = ti.tokenCallWith(form, basic)
	if code := call(body["access_token"].(string)); code != http.StatusOK {
		t.Fatalf("a bearer token: %d", code)
	}
}
