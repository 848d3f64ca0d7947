package adminhttp

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// The console's most dangerous actions (deleting a customer, transferring
// ownership, resolving a database URI) answer 401 with RFC 9470's
// challenge until the caller's token shows a sign-in with a second factor
// within the step-up's max age; then they go ahead. Other actions do not
// ask.
// spec: D-step-up
// attack: step-up-stale-or-weak-sign-in
func TestStepUpDangerousActions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.acc.SetStepUp(access.StepUp{MaxAge: 10 * time.Minute})
	admin := e.mustUser(authz.PlatformAdmin, "")
	weak := []map[string]string{
		nil,                       // no auth_time, no acr: a password sign-in of long ago
		{testAuthAgeHeader: "1m"}, // recent, password only
		{testAuthAgeHeader: "11m", testACRHeader: access.ACRMFA}, // a second factor, too long ago
		{testAuthAgeHeader: "1m", testACRHeader: "urn:other"},    // a class the console does not know
	}
	strong := map[string]string{testAuthAgeHeader: "1m", testACRHeader: access.ACRMFA}
	for _, r := range []struct {
		name, method string
		path         func() string
		body         any
	}{
		{"DeleteCustomer", "DELETE", func() string { return "/customers/" + e.mustCustomer() }, nil},
		{"ResolveDatabaseURI", "POST", func() string { return "/instances/" + e.mustInstance(e.mustCustomer()) + "/resolve-database-uri" }, nil},
		{"TransferOwnership", "POST", func() string { return "" }, nil},
	} {
		t.Run(r.name, func(t *testing.T) {
			path, body := r.path(), r.body
			if r.name == "TransferOwnership" {
				c := e.mustCustomer()
				e.mustUser(authz.Owner, c)
				path, body = "/customers/"+c+"/transfer-ownership", map[string]any{"userId": e.mustUser(authz.Admin, c)}
			}
			for _, h := range weak {
				resp := e.doWithHeaders(h, "", admin, r.method, path, body)
				challenge := resp.Header.Get("WWW-Authenticate")
				if resp.Status != http.StatusUnauthorized || !strings.Contains(challenge, `error="insufficient_user_authentication"`) ||
					!strings.Contains(challenge, `acr_values="`+access.ACRMFA+`"`) || !strings.Contains(challenge, "max_age=600") {
					t.Fatalf("%v: %d %q %s", h, resp.Status, challenge, resp.Body)
				}
			}
			if resp := e.doWithHeaders(strong, "", admin, r.method, path, body); resp.Status >= 300 {
				t.Fatalf("after a step-up: %d %s", resp.Status, resp.Body)
			}
		})
	}
	// an action that is not among them does not ask
	if resp := e.do(admin, "GET", "/customers/"+e.mustCustomer(), nil); resp.Status != http.StatusOK {
		t.Fatalf("a plain read = %d", resp.Status)
	}
}

// An account_manager starts impersonations only of the customers it is
// granted; the customer's permission does not widen its scope, and a
// customer role never impersonates.
// attack: impersonation-out-of-scope
func TestAttackImpersonationOutOfScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	granted, other := e.mustCustomer(), e.mustCustomer()
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, granted)
	for _, c := range []string{granted, other} {
		e.mustAllowImpersonation(c, true)
	}
	in, out := e.mustUser(authz.Member, granted), e.mustUser(authz.Member, other)
	if resp := e.do(am, "POST", "/users/"+out+"/impersonate", map[string]any{"reason": "r"}); resp.Status != http.StatusForbidden {
		t.Fatalf("outside its grants = %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(am, "POST", "/users/"+in+"/impersonate", map[string]any{"reason": "r"}); resp.Status != http.StatusCreated {
		t.Fatalf("within its grants = %d %s", resp.Status, resp.Body)
	}
	owner := e.mustUser(authz.Owner, granted)
	if resp := e.do(owner, "POST", "/users/"+in+"/impersonate", map[string]any{"reason": "r"}); resp.Status != http.StatusForbidden {
		t.Fatalf("the customer's owner = %d %s", resp.Status, resp.Body)
	}
	for name, reason := range map[string]any{"ErrEmpty": "  ", "ErrLong": strings.Repeat("x", 501), "ErrMissing": nil} {
		body := map[string]any{}
		if reason != nil {
			body["reason"] = reason
		}
		if resp := e.do(am, "POST", "/users/"+in+"/impersonate", body); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
}

// Acting for a user (an impersonation, a delegation: the token's act), the
// authorization core refuses every internal-infrastructure action and the
// owner's, whatever the user's role, at every route.
// attack: actor-forbidden-routes
func TestAttackActorForbiddenRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.mustCustomer()
	owner := e.mustUser(authz.Owner, c)
	actor := e.mustUser(authz.PlatformAdmin, "")
	grant := e.mustImpersonation(c, owner, actor)
	h := map[string]string{testActorHeader: actor, testGrantHeader: grant}
	for _, rt := range loadRoutes(t) {
		if !authz.ActorForbidden(rt.Action) {
			continue
		}
		path := strings.NewReplacer("{id}", "00000000-0000-4000-8000-000000000001", "{userId}", owner,
			"{sessionId}", "s", "{eventType}", "x").Replace(rt.Pattern)
		if resp := e.doWithHeaders(h, "", owner, rt.Method, path, map[string]any{}); resp.Status != http.StatusForbidden {
			t.Errorf("%s %s acting for the owner = %d, want 403", rt.Method, rt.Pattern, resp.Status)
		}
	}
	// the owner itself holds them
	if resp := e.do(owner, "PUT", "/customers/"+c+"/impersonation-policy", map[string]any{"allowed": false}); resp.Status != http.StatusOK {
		t.Fatalf("the owner's own decision = %d %s", resp.Status, resp.Body)
	}
}
