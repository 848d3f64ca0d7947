package console

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resolve-org lists passkey where the organization allows passkeys (for
// addresses with an account), and no password where it requires them; the
// gateway then sends the user to the provider with login_hint, as for a
// password (D-passkeys).
func TestResolveOrgPasskey(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	set := func(allowed, required bool) {
		p, err := tc.st.LoginPolicy(context.Background(), acmeOrg)
		if err != nil {
			t.Fatal(err)
		}
		p.PasskeyAllowed, p.PasskeyRequired = allowed, required
		if err := tc.st.PutLoginPolicy(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	methods := func(email string) []Method {
		out := tc.resolveOrg(email)
		for _, m := range out.AuthMethods {
			if m.OrgID == acmeOrg {
				return m.Methods
			}
		}
		return nil
	}
	pw, pk := Method{Type: "password"}, Method{Type: "passkey"}
	for _, tt := range []struct {
		name              string
		allowed, required bool
		want              []Method
	}{
		{"Off", false, false, []Method{pw}},
		{"Allowed", true, false, []Method{pw, pk}},
		{"Required", true, true, []Method{pk}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set(tt.allowed, tt.required)
			if diff := cmp.Diff(tt.want, methods("alice@acme.example")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	code, _, q := tc.authorize(tenantAuthorize("alice@acme.example", acmeOrg, "passkey", ""))
	if code != http.StatusOK || q.Get("login_hint") != "alice@acme.example" {
		t.Fatalf("authorize with passkey = %d %v", code, q)
	}
	if code, _, _ := tc.authorize(tenantAuthorize("alice@acme.example", acmeOrg, "password", "")); code != http.StatusForbidden {
		t.Fatalf("password for a passkey-only organization = %d, want 403", code)
	}
}
