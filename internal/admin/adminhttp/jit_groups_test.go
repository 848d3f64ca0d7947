package adminhttp

import (
	"context"
	"testing"

	"github.com/platform/platform/internal/admin"
)

// A provider's just-in-time groups (D-jit-groups) are set with the
// provider: a claim and a mapping to the customer's groups by id or name,
// kept in the console's record and the identity provider's alike. A
// mapping naming no group of the customer (another customer's, or none), a
// claim without a mapping or the reverse, and a malformed claim are 400,
// and nothing changes.
//
// attack: jit-mapping-other-customer-group
func TestAttackJITMappingOtherCustomerGroup(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	ctx := context.Background()
	mine, theirs := w.e.mustGroup(w.acme, "viewer"), w.e.mustGroup(w.other, "admin")
	path := "/customers/" + w.acme + "/identity-providers"
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"name": "Okta " + w.e.id("p"), "issuer": "https://acme.okta.example", "clientId": "0oa1", "clientSecret": "s3cret"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for name, extra := range map[string]map[string]any{
		"other customer's group": {"groupsClaim": "groups", "groupMapping": map[string]string{"Admins": theirs}},
		"no such group":          {"groupsClaim": "groups", "groupMapping": map[string]string{"Admins": "nope"}},
		"claim without mapping":  {"groupsClaim": "groups"},
		"mapping without claim":  {"groupMapping": map[string]string{"Admins": mine}},
		"malformed claim":        {"groupsClaim": "groups[0]", "groupMapping": map[string]string{"Admins": mine}},
	} {
		if r := w.e.do(w.owner, "POST", path, base(extra)); r.Status != 400 {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	var idp admin.IdentityProvider
	decodeInto(t, w.e.do(w.owner, "POST", path, base(map[string]any{"groupsClaim": "groups", "groupMapping": map[string]string{"Field crew": mine}})), &idp)
	if idp.GroupsClaim != "groups" || idp.GroupMapping["Field crew"] != mine {
		t.Fatalf("provider = %+v", idp)
	}
	cust, _ := w.e.st.Customer(ctx, w.acme)
	if x, err := w.e.st.ExternalIDP(ctx, idp.ID); err != nil || x.OrgID != cust.OrgID || x.GroupsClaim != "groups" || x.GroupMapping["Field crew"] != mine {
		t.Fatalf("the identity provider's record = %+v, %v", x, err)
	}
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"groupMapping": map[string]string{"x": theirs}}); r.Status != 400 {
		t.Errorf("patching in another customer's group: %d %s", r.Status, r.Body)
	}
	if x, _ := w.e.st.ExternalIDP(ctx, idp.ID); x.GroupMapping["Field crew"] != mine || len(x.GroupMapping) != 1 {
		t.Errorf("a refused patch changed the mapping: %+v", x.GroupMapping)
	}
	// turning it off: no claim, no mapping
	var off admin.IdentityProvider
	decodeInto(t, w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"groupsClaim": "", "groupMapping": map[string]string{}}), &off)
	if x, _ := w.e.st.ExternalIDP(ctx, idp.ID); off.GroupsClaim != "" || len(off.GroupMapping) != 0 || x.GroupsClaim != "" || len(x.GroupMapping) != 0 {
		t.Errorf("turned off = %+v / %+v", off, x)
	}
}
