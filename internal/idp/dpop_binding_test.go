package idp

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/testkit"
)

// postToken posts form to the token endpoint with one DPoP proof (none
// when proof is "") and answers the status, the body and the DPoP-Nonce
// header.
func (ti *testIDP) postToken(form url.Values, proof string) (int, map[string]any, string) {
	ti.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathToken, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if proof != "" {
		req.Header.Set("DPoP", proof)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ti.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body, resp.Header.Get("DPoP-Nonce")
}

// The token endpoint asks for its own nonce (RFC 9449 section 8): a proof
// without one, with a forged one or with one another server made is
// refused use_dpop_nonce, the answer naming the current nonce in
// DPoP-Nonce; the code stays unspent, and the retry with the named nonce
// is served (answering the nonce again).
// attack: dpop-nonce-token-endpoint
func TestAttackDPoPNonceAtTokenEndpoint(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	key := testkit.NewDPoPKey(t)
	htu := ti.issuer + PathToken
	form := ti.codeForm(r)
	foreign := dpop.NewNonces([]byte("another server's key of 32 bytes")).Issue(time.Now())
	var nonce string
	for name, n := range map[string]string{"none": "", "forged": strings.Repeat("A", 32), "another server's": foreign} {
		status, body, got := ti.postToken(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n}))
		if status != http.StatusBadRequest || body["error"] != "use_dpop_nonce" || got == "" {
			t.Fatalf("%s nonce: %d %v, DPoP-Nonce %q; want 400 use_dpop_nonce with a nonce", name, status, body, got)
		}
		nonce = got
	}
	status, body, again := ti.postToken(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: nonce}))
	if status != http.StatusOK || body["token_type"] != "DPoP" || again == "" {
		t.Fatalf("the retry with the server's nonce: %d %v, DPoP-Nonce %q", status, body, again)
	}
}

// An authorization request naming dpop_jkt (RFC 9449 section 10) binds its
// code to that key: the code is exchanged only with a proof of the key,
// not without a proof and not with another key's (the code stays unspent
// by both refusals), and the tokens are bound to it. A dpop_jkt that is no
// SHA-256 thumbprint is refused at the authorization endpoint.
// attack: dpop-code-binding
func TestAttackDPoPCodeBoundAtAuthorize(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	r := ti.rp(gooidc.ScopeOpenID, "email")
	key, other := testkit.NewDPoPKey(t), testkit.NewDPoPKey(t)
	htu := ti.issuer + PathToken
	f := newFlow()
	code := ti.login(ti.browser(), r, f, alice, goodPass, oauth2.SetAuthURLParam("dpop_jkt", key.JKT()))
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect},
		"client_id": {appClientID}, "code_verifier": {f.verifier}}
	if status, body, _ := ti.postToken(form, ""); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("the bound code without a proof: %d %v", status, body)
	}
	if status, body, _ := ti.postToken(form, other.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusBadRequest ||
		body["error"] != "invalid_dpop_proof" {
		t.Fatalf("the bound code with another key's proof: %d %v", status, body)
	}
	status, body, _ := ti.postToken(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n}))
	if status != http.StatusOK || body["token_type"] != "DPoP" || cnfJKT(t, body["access_token"].(string)) != key.JKT() {
		t.Fatalf("the bound code with its key's proof: %d %v", status, body)
	}

	for name, jkt := range map[string]string{"short": "abc", "not base64url": strings.Repeat("!", 43), "empty": ""} {
		q := baseAuthorize()
		q.Set("dpop_jkt", jkt)
		resp := ti.authorize(t, q)
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), appRedirect) || loc.Query().Get("error") != "invalid_request" {
			t.Fatalf("dpop_jkt %s: %d Location=%q; want an invalid_request redirect to the client", name, resp.StatusCode, loc)
		}
	}
}

// A pushed request binds its code as well (RFC 9449 section 10.1): by its
// dpop_jkt or by a proof sent with the push (for the PAR endpoint, spent
// once). A proof of another key than the dpop_jkt beside it, a proof for
// another endpoint, a replayed one and a malformed dpop_jkt are refused.
// attack: dpop-code-binding-par
func TestAttackDPoPCodeBoundAtPAR(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	n := ti.dpopNonce()
	key, other := testkit.NewDPoPKey(t), testkit.NewDPoPKey(t)
	pushWith := func(form url.Values, proof string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathPAR, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if proof != "" {
			req.Header.Set("DPoP", proof)
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
	// signs alice in through the pushed request and answers the code's form
	codeOf := func(f flow, uri string) url.Values {
		t.Helper()
		b := ti.browser()
		_, page := b.get(ti.authorizeWith(appClientID, uri))
		resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
		q := callback(t, resp)
		if q.Get("code") == "" {
			t.Fatalf("callback = %v", q)
		}
		return url.Values{"grant_type": {"authorization_code"}, "code": {q.Get("code")}, "redirect_uri": {appRedirect},
			"client_id": {appClientID}, "code_verifier": {f.verifier}}
	}
	htu := ti.issuer + PathToken
	parProof := key.Proof(http.MethodPost, ti.issuer+PathPAR, testkit.ProofOpts{})

	// bound by the proof sent with the push
	f := newFlow()
	status, out := pushWith(pushParams(appClientID, f), parProof)
	if status != http.StatusCreated {
		t.Fatalf("push with a proof: %d %v", status, out)
	}
	form := codeOf(f, out["request_uri"].(string))
	if status, body, _ := ti.postToken(form, other.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusBadRequest ||
		body["error"] != "invalid_dpop_proof" {
		t.Fatalf("the code of a proof-bound push with another key: %d %v", status, body)
	}
	if status, body, _ := ti.postToken(form, key.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusOK ||
		cnfJKT(t, body["access_token"].(string)) != key.JKT() {
		t.Fatalf("the code of a proof-bound push with its key: %d %v", status, body)
	}

	// bound by the pushed dpop_jkt
	f = newFlow()
	params := pushParams(appClientID, f)
	params.Set("dpop_jkt", other.JKT())
	if status, out = pushWith(params, ""); status != http.StatusCreated {
		t.Fatalf("push with dpop_jkt: %d %v", status, out)
	}
	form = codeOf(f, out["request_uri"].(string))
	if status, body, _ := ti.postToken(form, ""); status != http.StatusBadRequest || body["error"] != "invalid_dpop_proof" {
		t.Fatalf("the code of a dpop_jkt push without a proof: %d %v", status, body)
	}
	if status, body, _ := ti.postToken(form, other.Proof(http.MethodPost, htu, testkit.ProofOpts{Nonce: n})); status != http.StatusOK ||
		cnfJKT(t, body["access_token"].(string)) != other.JKT() {
		t.Fatalf("the code of a dpop_jkt push with its key: %d %v", status, body)
	}

	for name, tc := range map[string]struct {
		jkt, proof, code string
	}{
		"proof of another key than dpop_jkt": {other.JKT(), key.Proof(http.MethodPost, ti.issuer+PathPAR, testkit.ProofOpts{}), "invalid_dpop_proof"},
		"proof for the token endpoint":       {"", key.Proof(http.MethodPost, htu, testkit.ProofOpts{}), "invalid_dpop_proof"},
		"replayed proof":                     {"", parProof, "invalid_dpop_proof"},
		"malformed dpop_jkt":                 {"not-a-thumbprint", "", "invalid_request"},
	} {
		params := pushParams(appClientID, newFlow())
		if tc.jkt != "" {
			params.Set("dpop_jkt", tc.jkt)
		}
		if status, out := pushWith(params, tc.proof); status != http.StatusBadRequest || out["error"] != tc.code {
			t.Fatalf("%s: %d %v, want 400 %s", name, status, out, tc.code)
		}
	}
}

// Introspection answers a bound token's type and key (RFC 9449 section
// 6.2: token_type DPoP, cnf.jkt), so that a resource server that
// introspects checks the proof against it; an unbound token is Bearer
// without cnf.
// spec: D-dpop
func TestIntrospectionOfBoundTokens(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.mustServiceApp()
	n := ti.dpopNonce()
	r := ti.rp()
	key := testkit.NewDPoPKey(t)
	_, body, _ := ti.postToken(ti.codeForm(r), key.Proof(http.MethodPost, ti.issuer+PathToken, testkit.ProofOpts{Nonce: n}))
	bound, _ := body["access_token"].(string)
	code, got := ti.introspectAs(t, serviceClientID, serviceSecret, bound)
	cnf, _ := got["cnf"].(map[string]any)
	if code != http.StatusOK || got["active"] != true || got["token_type"] != "DPoP" || cnf["jkt"] != key.JKT() {
		t.Fatalf("introspection of a bound token: %d %v", code, got)
	}
	_, body, _ = ti.postToken(ti.codeForm(r), "")
	code, got = ti.introspectAs(t, serviceClientID, serviceSecret, body["access_token"].(string))
	if code != http.StatusOK || got["active"] != true || got["token_type"] != "Bearer" || got["cnf"] != nil {
		t.Fatalf("introspection of a bearer token: %d %v", code, got)
	}
}
