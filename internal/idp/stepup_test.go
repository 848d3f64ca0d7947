package idp

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// idACR is the acr and amr of an id_token.
type idACR struct {
	ACR string   `json:"acr"`
	AMR []string `json:"amr"`
}

// tokenACR exchanges the code of resp and answers its id_token's acr and
// amr, and the access token's.
func (ti *testIDP) tokenACR(r *rp, f flow, resp *http.Response) (idACR, map[string]any) {
	ti.t.Helper()
	tok, err := r.exchange(f, callback(ti.t, resp).Get("code"))
	if err != nil {
		ti.t.Fatal(err)
	}
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		ti.t.Fatal(err)
	}
	var c idACR
	_ = idt.Claims(&c)
	return c, decodeClaims(ti.t, tok.AccessToken)
}

// Step-up at the provider: discovery advertises the classes; acr_values
// asking for a second factor make a password sign-in ask for the code,
// and the id_token and the access token then carry acr mfa (and amr); a
// password-only sign-in carries no acr.
// spec: D-step-up
func TestStepUpACRValues(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	_, disc := b.get(ti.issuer + DiscoveryPath)
	if !strings.Contains(disc, `"acr_values_supported":["`+ACRMFA+`","`+ACRPhishingResistant+`"]`) ||
		!strings.Contains(disc, "urn:ietf:params:oauth:grant-type:token-exchange") {
		t.Fatalf("discovery: %s", disc)
	}
	ti.login(b, r, newFlow(), alice, goodPass)
	secret, _ := ti.enrolTOTP(b)

	f := newFlow()
	resp, page := ti.passwordStep(b, r, f, alice)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `autocomplete="one-time-code"`) {
		t.Fatalf("a user with TOTP is asked for it anyway: %d", resp.StatusCode)
	}
	resp, _ = b.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {ti.code(secret)}})
	id, at := ti.tokenACR(r, f, resp)
	if id.ACR != ACRMFA || !slices.Contains(id.AMR, "mfa") || at["acr"] != ACRMFA {
		t.Fatalf("after a second factor: id_token %+v, access token acr %v", id, at["acr"])
	}

	// bob has no second factor: a password sign-in reaches no class, and
	// acr_values for one make the sign-in set a second factor up first
	b2 := ti.browser()
	f = newFlow()
	_, page = b2.get(r.authURL(f))
	resp, _ = b2.submitLogin(ti.issuer, page, bob, goodPass)
	id, at = ti.tokenACR(r, f, resp)
	if id.ACR != "" || at["acr"] != nil {
		t.Fatalf("a password sign-in claims a class: %+v %v", id, at["acr"])
	}
	f = newFlow()
	_, page = b2.get(r.authURL(f, oauth2.SetAuthURLParam("acr_values", ACRMFA), oauth2.SetAuthURLParam("prompt", "login")))
	resp, page = b2.submitLogin(ti.issuer, page, bob, goodPass)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `id="totp-secret"`) {
		t.Fatalf("acr_values mfa without a second factor: %d, not the enrolment:\n%.300s", resp.StatusCode, page)
	}
}

// A browser session signed in with a password only never answers a
// request whose acr_values ask for a second factor, and no session answers
// one whose max_age it is older than: prompt=none gets login_required, and
// without prompt the sign-in is asked again.
// attack: step-up-bypass
func TestAttackStepUpBypass(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	for name, extra := range map[string][]oauth2.AuthCodeOption{
		"MaxAge":       {oauth2.SetAuthURLParam("max_age", "0")},
		"ACRMFA":       {oauth2.SetAuthURLParam("acr_values", ACRMFA)},
		"ACRPhishing":  {oauth2.SetAuthURLParam("acr_values", ACRPhishingResistant)},
		"ACRUnknownMF": {oauth2.SetAuthURLParam("acr_values", "urn:other "+ACRMFA)},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFlow()
			resp, _ := b.get(r.authURL(f, append(extra, oauth2.SetAuthURLParam("prompt", "none"))...))
			if q := callback(t, resp); q.Get("error") != "login_required" || q.Get("code") != "" {
				t.Fatalf("prompt=none from a session that does not meet the request: %v", q)
			}
			f = newFlow()
			resp, page := b.get(r.authURL(f, extra...))
			if resp.StatusCode != http.StatusOK || !strings.Contains(page, `name="password"`) {
				t.Fatalf("the session answered instead of a new sign-in: %d %s", resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}
	// without a demand the same session still answers silently
	f := newFlow()
	resp, _ := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("the session no longer answers a plain request: %v", q)
	}
	// a passkey is demanded: a password plus TOTP does not reach it
	secret, _ := ti.enrolTOTP(b)
	f = newFlow()
	_, page := b.get(r.authURL(f, oauth2.SetAuthURLParam("acr_values", ACRPhishingResistant), oauth2.SetAuthURLParam("prompt", "login")))
	resp, page = b.submitLogin(ti.issuer, page, alice, goodPass)
	if strings.Contains(page, `autocomplete="one-time-code"`) {
		resp, page = b.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {ti.code(secret)}})
	}
	if loc := resp.Header.Get("Location"); strings.HasPrefix(loc, appRedirect) && callback(t, resp).Get("code") != "" {
		t.Fatalf("a password and TOTP passed for a passkey: %v", loc)
	}
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, "passkey") {
		t.Fatalf("no passkey: %d\n%.300s", resp.StatusCode, page)
	}
}

// decodeClaims reads a JWT's claims without verifying it.
func decodeClaims(t testing.TB, raw string) map[string]any {
	t.Helper()
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %.20s", raw)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
