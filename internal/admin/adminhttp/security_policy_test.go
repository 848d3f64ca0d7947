package adminhttp

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/authz"
)

// A customer's owner sets its security policy (D-org-policy): the stored
// login policy carries it, the rest of the sign-in settings stay, and bad
// values are refused with one message per problem and nothing changed: a
// minimum password length below the platform's, lifetimes outside their
// bounds or an idle one beyond the absolute one, MFA forced with no second
// factor left to satisfy it. A member may not read it.
//
// spec: D-org-policy
func TestSecurityPolicy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	owner, member := e.mustUser(authz.Owner, cust), e.mustUser(authz.Member, cust)
	path := "/customers/" + cust + "/security-policy"

	resp := e.do(owner, http.MethodGet, path, nil)
	got := resp.json(t)
	if resp.Status != http.StatusOK || got["passwordMinLength"] != 12.0 || got["platformPasswordMinLength"] != 12.0 ||
		got["mfaByTotp"] != true || got["sessionMaxSeconds"] != 0.0 {
		t.Fatalf("default = %d %s", resp.Status, resp.Body)
	}
	resp = e.do(owner, http.MethodPut, path, map[string]any{"sessionIdleSeconds": 900, "sessionMaxSeconds": 28800,
		"passwordMinLength": 16, "mfaByTotp": false})
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), `"passwordMinLength":16`) {
		t.Fatalf("put = %d %s", resp.Status, resp.Body)
	}
	p, err := e.st.LoginPolicy(context.Background(), orgOf(t, e, cust))
	if err != nil || p.SessionIdleSeconds != 900 || p.SessionMaxSeconds != 28800 || p.PasswordMinLength != 16 || p.MFAByTOTP ||
		!p.MFAByPasskey || !p.PasswordAllowed || !p.PasswordCheckCommon {
		t.Fatalf("stored = %+v (%v)", p, err)
	}

	if resp := e.do(owner, http.MethodPut, "/customers/"+cust+"/sso", map[string]any{"mfaForced": true}); resp.Status != http.StatusOK {
		t.Fatalf("force MFA = %d %s", resp.Status, resp.Body)
	}
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"passwordMinLength": 10}, "platform's minimum"},
		{map[string]any{"passwordMinLength": 200}, "platform's minimum"},
		{map[string]any{"sessionMaxSeconds": 60}, "sessionMaxSeconds must be 0"},
		{map[string]any{"sessionIdleSeconds": 40 * 86400}, "sessionIdleSeconds must be 0"},
		{map[string]any{"sessionIdleSeconds": 7200, "sessionMaxSeconds": 3600}, "must not exceed"},
		{map[string]any{"mfaByTotp": false, "mfaByPasskey": false, "mfaBySso": false}, "needs at least one"},
		{map[string]any{"mfaByTotp": false, "mfaBySso": false}, "needs passkeyAllowed"},
		{map[string]any{"passwordMinLength": "long"}, ""},
	} {
		resp := e.do(owner, http.MethodPut, path, tc.body)
		if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), tc.want) {
			t.Errorf("put %v = %d %s", tc.body, resp.Status, resp.Body)
		}
	}
	if again, _ := e.st.LoginPolicy(context.Background(), orgOf(t, e, cust)); again.PasswordMinLength != 16 || again.SessionMaxSeconds != 28800 {
		t.Fatalf("a refused change was stored: %+v", again)
	}
	if resp := e.do(member, http.MethodGet, path, nil); resp.Status != http.StatusForbidden {
		t.Fatalf("member reads = %d", resp.Status)
	}
}
