package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
)

// addInitechDirectory registers a second external provider for Initech:
// Initech's directory again (an organization on this same provider), under
// a federation client of its own, as a second directory would be.
func addInitechDirectory(t *testing.T, m *Main, idpID, clientID string) {
	t.Helper()
	ctx, now := context.Background(), time.Now().UTC()
	secret := idp.NewSecret()
	if err := m.Store.CreateApplication(ctx, &platform.Application{AppID: "5c0e8a52-0000-4000-8000-0000000000f1",
		ClientID: clientID, Name: "Initech second directory federation", Kind: platform.AppWeb,
		RedirectURIs: []string{m.Config.IssuerURL + idp.PathSSOCallback}, SecretHash: idp.HashSecret(secret), CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := m.IDP.RegisterExternalIDP(ctx, &platform.ExternalIDP{ID: idpID, OrgID: DemoInitechOrgID,
		Name: "Initech Second Directory", Issuer: m.Config.IssuerURL, ClientID: clientID, LinkTrusted: true,
		Scopes: []string{"openid", "profile", "email", idp.ScopeOrgPrefix + DemoDirOrgID}, CreatedAt: now}, secret, false); err != nil {
		t.Fatal(err)
	}
}

// The sso method signs in through the external provider the user chose at
// the gateway. Initech has two: for each, the authorize URL the gateway
// builds carries that provider's idp scope, the identity provider sends the
// browser straight to that provider (an authorize request of its
// federation client) without a sign-in page of its own, and after the
// directory's sign-in the console's callback receives a code whose
// id_token is of an Initech user.
//
// spec: R4.1-ro-sso
func TestSSOThroughTheChosenProvider(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	const secondID, secondClient = "3a9d6c1b-0000-4000-8000-0000000000f2", "initech-directory-2"
	addInitechDirectory(t, m, secondID, secondClient)
	const email = "peter@initech.example"

	a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/api/v1/login/resolve-org", "", map[string]string{"email": email})
	var offered []string
	methods, _ := a.body["authMethods"].([]any)
	for _, om := range methods {
		for _, x := range om.(map[string]any)["methods"].([]any) {
			if x := x.(map[string]any); x["type"] == "sso" {
				offered = append(offered, x["idpId"].(string))
			}
		}
	}
	if a.status != 200 || len(offered) != 2 {
		t.Fatalf("resolve-org = %d %v; want Initech's two providers", a.status, a.body)
	}

	ctx := context.Background()
	prov, err := gooidc.NewProvider(ctx, m.Config.IssuerURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, chosen := range []struct{ idpID, clientID string }{{secondID, secondClient}, {DemoInitechIDPID, demoDirClientID}} {
		t.Run(chosen.clientID, func(t *testing.T) {
			b := newRawAuthorization(t, m, email)
			status, q := authorizeURLFor(t, m, map[string]string{"flow": "console", "email": email, "orgId": DemoInitechOrgID,
				"method": "sso", "idpId": chosen.idpID, "codeChallenge": b.query.Get("code_challenge"),
				"state": b.query.Get("state"), "nonce": b.query.Get("nonce")})
			if status != 200 || !strings.Contains(" "+q.Get("scope")+" ", " "+idp.ScopeOrgIDPPrefix+chosen.idpID+" ") {
				t.Fatalf("authorize URL = %d, scope %q; want the idp scope of %s", status, q.Get("scope"), chosen.idpID)
			}
			// Follow the redirects to the first page shown.
			var seen []string
			loc := m.Config.IssuerURL + idp.PathAuthorize + "?" + q.Encode()
			var page string
			for i := 0; i < 10; i++ {
				seen = append(seen, loc)
				code, next, body := b.get(loc)
				if code/100 != 3 {
					if code != 200 {
						t.Fatalf("%s = %d", loc, code)
					}
					page = body
					break
				}
				if !strings.HasPrefix(next, "http") {
					next = m.Config.IssuerURL + next
				}
				loc = next
			}
			federation := -1
			for i, u := range seen {
				if strings.Contains(u, idp.PathAuthorize+"?") && strings.Contains(u, "client_id="+url.QueryEscape(chosen.clientID)+"&") ||
					strings.HasSuffix(u, "client_id="+url.QueryEscape(chosen.clientID)) {
					federation = i
					break
				}
			}
			// Every answer before the federation request was a redirect:
			// the first page shown is the chosen provider's.
			if federation < 0 || federation == len(seen)-1 || page == "" {
				t.Fatalf("the first page shown is not behind the chosen provider (client %s): %v", chosen.clientID, seen)
			}

			form := url.Values{"email": {email}, "password": {DemoPassword}}
			for _, f := range hiddenField.FindAllStringSubmatch(page, -1) {
				form.Set(f[1], f[2])
			}
			code, next, _ := b.post(m.Config.IssuerURL+idp.PathLogin, form)
			for i := 0; i < 10 && code/100 == 3 && !strings.HasPrefix(next, m.Config.ConsoleURL); i++ {
				if !strings.HasPrefix(next, "http") {
					next = m.Config.IssuerURL + next
				}
				code, next, _ = b.get(next)
			}
			cb, _ := url.Parse(next)
			if !strings.HasPrefix(next, m.Config.ConsoleURL+"/callback?") || cb.Query().Get("code") == "" || cb.Query().Get("state") != b.query.Get("state") {
				t.Fatalf("after the directory's sign-in: %d to %q, want the console's callback with a code", code, next)
			}
			status, out := b.exchange(b.tokenForm(cb.Query().Get("code"), nil))
			raw, _ := out["id_token"].(string)
			if status != 200 || raw == "" {
				t.Fatalf("token = %d %v", status, out)
			}
			idt, err := prov.Verifier(&gooidc.Config{ClientID: m.Config.ConsoleClientID}).Verify(ctx, raw)
			if err != nil {
				t.Fatal(err)
			}
			var claims map[string]any
			_ = idt.Claims(&claims)
			if claims[idp.ClaimResourceOwnerID] != DemoInitechOrgID || claims["email"] != email {
				t.Fatalf("claims = %v, want an Initech user", claims)
			}
		})
	}
}
