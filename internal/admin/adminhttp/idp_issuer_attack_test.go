package adminhttp

import (
	"context"
	"strings"
	"testing"

	"github.com/platform/platform/internal/admin"
)

// TestAttackSSOIssuerInternal: a customer admin registers an identity
// provider whose issuer is an internal address (loopback, a private
// network, the cloud metadata address, localhost), or repoints one there:
// the identity provider would fetch it at sign-in. Refused when it is set,
// with the webhooks' egress rule, and nothing is stored; where the policy
// allows loopback (EGRESS_ALLOW, the all-in-one role) the localhost issuer
// is accepted.
//
// attack: sso-issuer-internal
func TestAttackSSOIssuerInternal(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	ctx := context.Background()
	path := "/customers/" + w.acme + "/identity-providers"
	provider := func(name, issuer string) map[string]any {
		return map[string]any{"name": name, "issuer": issuer, "clientId": "0oa1", "clientSecret": "very-secret-value"}
	}
	for i, issuer := range []string{"http://127.0.0.1:8080", "https://10.0.0.7/", "https://169.254.169.254/latest/meta-data/",
		"http://localhost:8080", "https://[::ffff:127.0.0.1]/", "https://[fd00::1]/"} {
		r := w.e.do(w.owner, "POST", path, provider("Internal "+string(rune('A'+i)), issuer))
		if r.Status != 400 || !strings.Contains(string(r.Body), "egress policy") || !strings.Contains(string(r.Body), "issuer") {
			t.Errorf("POST issuer %s = %d, want 400 naming the issuer and the egress policy: %s", issuer, r.Status, r.Body)
		}
	}
	cust, err := w.e.st.Customer(ctx, w.acme)
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := w.e.st.IDPConfigs(ctx, w.acme); len(rows) != 0 {
		t.Fatalf("%d identity providers stored", len(rows))
	}
	if xs, _ := w.e.st.ExternalIDPs(ctx, cust.OrgID); len(xs) != 0 {
		t.Fatalf("%d providers reach sign-in", len(xs))
	}

	r := w.e.do(w.owner, "POST", path, provider("Okta", "https://acme.okta.example"))
	var created admin.IdentityProvider
	decodeInto(t, r, &created)
	if r.Status != 201 {
		t.Fatalf("public issuer: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+created.ID, map[string]any{"issuer": "https://169.254.169.254/"}); r.Status != 400 ||
		!strings.Contains(string(r.Body), "egress policy") {
		t.Errorf("PATCH to the metadata address: %d %s", r.Status, r.Body)
	}
	xs, _ := w.e.st.ExternalIDPs(ctx, cust.OrgID)
	if len(xs) != 1 || xs[0].Issuer != "https://acme.okta.example" {
		t.Fatalf("a refused PATCH changed what sign-in uses: %+v", xs)
	}

	dev := newConfigWorld(t, admin.WithEgress(loopback))
	if r := dev.e.do(dev.owner, "POST", "/customers/"+dev.acme+"/identity-providers", provider("Dev", "http://localhost:8080")); r.Status != 201 {
		t.Errorf("localhost issuer with loopback allowed: %d %s", r.Status, r.Body)
	}
}
