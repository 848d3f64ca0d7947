package adminhttp

import (
	"context"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
)

// Linking trust in an identity provider is platform_admin's to give
// (D-linking): the customer's owner and its account manager cannot mark
// their own provider trusted, on create or update, and a trusted provider
// pointed at another issuer loses its trust and its linked identities, so an
// admin cannot repoint a trusted or linked provider at one he controls.
// attack: customer-trusts-own-provider
func TestAttackCustomerTrustsOwnProvider(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	ctx := context.Background()
	path := "/customers/" + w.acme + "/identity-providers"
	body := map[string]any{"name": "Okta", "issuer": "https://acme.okta.example", "clientId": "0oa1",
		"clientSecret": "very-secret-value", "mfaEnforced": true}
	for _, caller := range []string{w.owner, w.am} {
		trusted := map[string]any{"linkTrusted": true}
		for k, v := range body {
			trusted[k] = v
		}
		if r := w.e.do(caller, "POST", path, trusted); r.Status != 403 {
			t.Fatalf("a trusted provider created by a customer-side role: %d %s", r.Status, r.Body)
		}
	}
	r := w.e.do(w.owner, "POST", path, body)
	var idp admin.IdentityProvider
	decodeInto(t, r, &idp)
	if r.Status != 201 || idp.LinkTrusted || !idp.MFAEnforced {
		t.Fatalf("create by the owner: %d %+v", r.Status, idp)
	}
	one := "/identity-providers/" + idp.ID
	if r := w.e.do(w.owner, "PATCH", one, map[string]any{"linkTrusted": true}); r.Status != 403 {
		t.Fatalf("owner trusting the provider: %d", r.Status)
	}
	r = w.e.do(w.admin, "PATCH", one, map[string]any{"linkTrusted": true})
	decodeInto(t, r, &idp)
	if r.Status != 200 || !idp.LinkTrusted {
		t.Fatalf("platform_admin trusting the provider: %d %+v", r.Status, idp)
	}
	if x, err := w.e.st.ExternalIDP(ctx, idp.ID); err != nil || !x.LinkTrusted || !x.MFAEnforced {
		t.Fatalf("sign-in's copy of the provider: %+v, %v", x, err)
	}
	// someone signed in through it before
	if err := w.e.st.LinkExternalIdentity(ctx, idp.ID, "sub-of-the-owner", w.owner, time.Now()); err != nil {
		t.Fatal(err)
	}
	r = w.e.do(w.owner, "PATCH", one, map[string]any{"issuer": "https://rogue.example"})
	decodeInto(t, r, &idp)
	if r.Status != 200 || idp.LinkTrusted {
		t.Fatalf("repointed provider: %d, still trusted: %+v", r.Status, idp)
	}
	if x, _ := w.e.st.ExternalIDP(ctx, idp.ID); x.LinkTrusted || x.Issuer != "https://rogue.example" {
		t.Fatalf("sign-in's copy after the repoint: %+v", x)
	}
	if uid, err := w.e.st.LinkedUser(ctx, idp.ID, "sub-of-the-owner"); err == nil {
		t.Fatalf("the old issuer's identity still links to %s under the new issuer", uid)
	}
	// turning trust off is any manager's
	if r := w.e.do(w.owner, "PATCH", one, map[string]any{"linkTrusted": false, "mfaEnforced": false}); r.Status != 200 {
		t.Fatalf("owner turning trust off: %d", r.Status)
	}
}
