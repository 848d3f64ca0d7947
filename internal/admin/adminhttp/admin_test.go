package adminhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/mock"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

func count(t *testing.T, e *env, table string) int {
	t.Helper()
	var n int
	if err := e.st.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// When the identity provider refuses to register the application, no
// instance and no connection are stored.
// spec: R2.5-instance-app
func TestCreateInstanceProviderFails(t *testing.T) {
	t.Parallel()
	apps := new(MockApps)
	apps.On("Create", mock.Anything, mock.MatchedBy(func(in admin.AppInput) bool {
		return len(in.RedirectURIs) == 2 && strings.HasSuffix(in.RedirectURIs[0], "/auth/callback") &&
			strings.HasSuffix(in.RedirectURIs[1], "/3/auth/callback")
	})).Return(nil, errors.New("connection refused"))
	e := newEnv(t, admin.WithApps(apps))
	pa := e.mustUser(authz.PlatformAdmin, "")
	cust := e.mustCustomer()
	before, conns := count(t, e, "instances"), count(t, e, "instance_connections")
	resp := e.do(pa, http.MethodPost, "/instances", map[string]any{"customerId": cust, "name": "X", "url": "https://x.example"})
	if resp.Status != http.StatusInternalServerError {
		t.Fatalf("create = %d %s", resp.Status, resp.Body)
	}
	checkErrorObject(t, resp, "/instances")
	if strings.Contains(string(resp.Body), "connection refused") {
		t.Fatal("the provider's internal error reached the caller")
	}
	if count(t, e, "instances") != before || count(t, e, "instance_connections") != conns {
		t.Fatal("an instance was stored although the provider failed")
	}
	apps.AssertExpectations(t)
}

// Bad input is answered with the 7.1 error object and writes nothing.
func TestBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	a, b := e.mustCustomer(), e.mustCustomer()
	inst := e.mustInstance(a)
	tenant := e.mustTenant(a, inst)
	staff := e.mustUser(authz.AccountManager, "")
	tables := []string{"customers", "tenants", "instances", "users", "console_users", "customer_grants", "instance_grants",
		"tenant_migrations", "focus_modes", "notification_subscriptions"}
	snapshot := func() map[string]int {
		m := map[string]int{}
		for _, tb := range tables {
			m[tb] = count(t, e, tb)
		}
		return m
	}
	big := `{"name":"` + strings.Repeat("x", MaxBody) + `"}`
	for _, tc := range []struct {
		name, method, path string
		body               any
		want               int
	}{
		{"ErrInvalidJSON", "POST", "/customers", `{"name":`, 400},
		{"ErrUnknownField", "POST", "/customers", `{"name":"A","owner":"x"}`, 400},
		{"ErrTwoValues", "POST", "/customers", `{"name":"A"}{"name":"B"}`, 400},
		{"ErrEmptyBody", "POST", "/tenants", ``, 400},
		{"ErrTrailingData", "POST", "/customers", `{"name":"A"} x`, 400},
		{"ErrNotJSON", "POST", "/customers", typedBody{"text/plain", `{"name":"A"}`}, 415},
		{"ErrNoContentType", "PATCH", "/customers/" + a, typedBody{"", `{"name":"A"}`}, 415},
		{"ErrTooLarge", "POST", "/customers", big, 413},
		{"ErrBlankName", "POST", "/customers", map[string]any{"name": "  "}, 400},
		{"ErrSettingsNotObject", "PUT", "/customers/" + a + "/settings", `[1,2]`, 400},
		{"ErrUnknownInternalRole", "POST", "/internal-users", map[string]any{"email": "n@p.example", "name": "N", "role": "superuser"}, 400},
		{"ErrPortalRoleAsInternal", "POST", "/internal-users", map[string]any{"email": "n@p.example", "name": "N", "role": "owner"}, 400},
		{"ErrUnknownPortalRole", "POST", "/customers/" + a + "/users", map[string]any{"email": "n@a.example", "name": "N", "role": "boss"}, 400},
		{"ErrInviteOwner", "POST", "/customers/" + a + "/users", map[string]any{"email": "n@a.example", "name": "N", "role": "owner"}, 400},
		{"ErrGrantMissingCustomer", "POST", "/grants", map[string]any{"userId": staff, "customerId": "missing"}, 400},
		{"ErrGrantBothTargets", "POST", "/grants", map[string]any{"userId": staff, "customerId": a, "instanceId": inst}, 400},
		{"ErrGrantNotInternal", "POST", "/grants", map[string]any{"userId": "nobody", "customerId": a}, 400},
		{"ErrTransferSameCustomer", "POST", "/tenants/" + tenant + "/transfer", map[string]any{"customerId": a}, 400},
		{"ErrTransferMissingCustomer", "POST", "/tenants/" + tenant + "/transfer", map[string]any{"customerId": "missing"}, 400},
		{"ErrTenantInstanceOfOther", "POST", "/tenants", map[string]any{"customerId": b, "instanceId": inst, "name": "T"}, 400},
		{"ErrInstanceURL", "POST", "/instances", map[string]any{"customerId": a, "name": "I", "url": "javascript:alert(1)"}, 400},
		{"ErrMissingTenant", "GET", "/tenants/missing", nil, 404},
		{"ErrFocusMinutes", "POST", "/me/focus", map[string]any{"customerId": a, "minutes": 100000}, 400},
		{"ErrEventType", "POST", "/me/subscriptions", map[string]any{"eventType": "Not An Event"}, 400},
		{"ErrLimit", "GET", "/tenants?limit=0", nil, 400},
		{"ErrCursor", "GET", "/tenants?cursor=notacursor", nil, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot()
			resp := e.do(pa, tc.method, tc.path, tc.body)
			if resp.Status != tc.want {
				t.Fatalf("%s %s = %d, want %d: %s", tc.method, tc.path, resp.Status, tc.want, resp.Body)
			}
			checkErrorObject(t, resp, tc.path)
			if after := snapshot(); !mapsEqual(before, after) {
				t.Fatalf("rows changed: %v -> %v", before, after)
			}
		})
	}
	// ops_engineer is accepted as the old name of infra_ops.
	// spec: R5.7-roles
	resp := e.do(pa, "POST", "/internal-users", map[string]any{"email": "ops@p.example", "name": "Ops", "role": "ops_engineer"})
	if resp.Status != 201 || resp.json(t)["role"] != "infra_ops" {
		t.Fatalf("ops_engineer = %d %s", resp.Status, resp.Body)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Removing a customer removes its grants; the resolver returns the granted
// customers, with Source account_manager, and focus mode turns it into
// intersection; an empty source means unscoped.
// spec: R2.6-cascade, R2.6-resolver, R2.6-source
func TestGrantsThroughAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	am := e.mustUser(authz.AccountManager, "")
	a, b := e.mustCustomer(), e.mustCustomer()
	for _, c := range []string{a, b} {
		if r := e.do(pa, "POST", "/grants", map[string]any{"userId": am, "customerId": c}); r.Status != 201 {
			t.Fatalf("grant = %d %s", r.Status, r.Body)
		}
	}
	g := e.do(pa, "POST", "/grants", map[string]any{"userId": am, "customerId": a}).json(t) // twice: the first stays
	if g["granteeType"] != "user" || g["grantedBy"] != pa || g["grantedAt"] == nil {
		t.Fatalf("grant = %v", g)
	}
	perms := e.do(am, "GET", "/me/permissions", nil).json(t)
	sc := perms["scope"].(map[string]any)
	if sc["source"] != authz.SourceAccountManager || len(sc["customerIds"].([]any)) != 2 || sc["mode"] != "strict" {
		t.Fatalf("scope = %v", sc)
	}
	if r := e.do(am, "POST", "/me/focus", map[string]any{"customerId": b}); r.Status != 200 ||
		r.json(t)["scope"].(map[string]any)["source"] != authz.SourceIntersection {
		t.Fatalf("focus = %d %s", r.Status, r.Body)
	}
	if r := e.do(am, "DELETE", "/me/focus", nil); r.Status != 204 {
		t.Fatalf("leave focus = %d", r.Status)
	}
	if src := e.do(pa, "GET", "/me/permissions", nil).json(t)["scope"].(map[string]any)["source"]; src != "" {
		t.Fatalf("platform_admin source = %v, want empty (unscoped)", src)
	}
	if r := e.do(pa, "DELETE", "/customers/"+a, nil); r.Status != 204 {
		t.Fatalf("delete customer = %d %s", r.Status, r.Body)
	}
	gs, err := e.st.Grants(context.Background(), false, "", am)
	if err != nil || len(gs) != 1 || gs[0].TargetID != b {
		t.Fatalf("grants after removing the customer = %v, %v", gs, err)
	}
	if ids := e.do(am, "GET", "/me/permissions", nil).json(t)["scope"].(map[string]any)["customerIds"].([]any); len(ids) != 1 || ids[0] != b {
		t.Fatalf("resolver after removal = %v", ids)
	}
}

// Instance grants have the customer grants' shape with an instance in place
// of the customer: a QA admin granted a customer and one of its instances
// reaches that instance's tenants and not the other instance's (403, strict),
// the grant lists with granteeType user, grantedBy and grantedAt, granting
// twice keeps the first, and removing it takes the instance away again.
// spec: R2.6-instance-grant, R5.7-and
func TestInstanceGrantsThroughAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	qa := e.mustUser(authz.QAAdmin, "")
	cust := e.mustCustomer()
	inst1, inst2 := e.mustInstance(cust), e.mustInstance(cust)
	ten1, ten2 := e.mustTenant(cust, inst1), e.mustTenant(cust, inst2)
	if r := e.do(pa, "POST", "/grants", map[string]any{"userId": qa, "customerId": cust}); r.Status != 201 {
		t.Fatalf("customer grant = %d %s", r.Status, r.Body)
	}
	// the customer alone: no instance yet, so only tenants on no instance
	if r := e.do(qa, "GET", "/tenants/"+ten1, nil); r.Status != 403 {
		t.Fatalf("tenant on an ungranted instance = %d, want 403", r.Status)
	}
	first := e.do(pa, "POST", "/grants", map[string]any{"userId": qa, "instanceId": inst1})
	if first.Status != 201 {
		t.Fatalf("instance grant = %d %s", first.Status, first.Body)
	}
	g := first.json(t)
	if g["granteeType"] != "user" || g["granteeId"] != qa || g["instanceId"] != inst1 || g["customerId"] != nil ||
		g["grantedBy"] != pa || g["grantedAt"] == nil {
		t.Fatalf("instance grant = %v", g)
	}
	if again := e.do(pa, "POST", "/grants", map[string]any{"userId": qa, "instanceId": inst1}).json(t); again["grantedAt"] != g["grantedAt"] {
		t.Errorf("granting twice replaced the first grant: %v, then %v", g["grantedAt"], again["grantedAt"])
	}
	list := e.do(pa, "GET", "/grants?instanceId="+inst1, nil).json(t)["items"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["instanceId"] != inst1 {
		t.Fatalf("instance grants = %v", list)
	}
	sc := e.do(qa, "GET", "/me/permissions", nil).json(t)["scope"].(map[string]any)
	if ids, _ := sc["instanceIds"].([]any); len(ids) != 1 || ids[0] != inst1 {
		t.Fatalf("scope = %v", sc)
	}
	if r := e.do(qa, "GET", "/tenants/"+ten1, nil); r.Status != 200 {
		t.Fatalf("tenant on the granted instance = %d %s", r.Status, r.Body)
	}
	if r := e.do(qa, "GET", "/tenants/"+ten2, nil); r.Status != 403 {
		t.Fatalf("tenant on the other instance = %d, want 403", r.Status)
	}
	if r := e.do(pa, "DELETE", "/instances/"+inst1+"/grants/"+qa, nil); r.Status != 204 {
		t.Fatalf("remove instance grant = %d %s", r.Status, r.Body)
	}
	if r := e.do(qa, "GET", "/tenants/"+ten1, nil); r.Status != 403 {
		t.Fatalf("tenant after the instance grant went = %d, want 403", r.Status)
	}
	if r := e.do(pa, "DELETE", "/instances/"+inst1+"/grants/"+qa, nil); r.Status != 404 {
		t.Fatalf("removing it twice = %d, want 404", r.Status)
	}
}

// A notification subscription grants nothing: a member and an account
// manager who subscribe to event types named like actions and roles get
// exactly the answers they got before, through the whole API path
// (principal, scope, decisions, lists).
// spec: R6-subscription
func TestSubscriptionGrantsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust, other := e.mustCustomer(), e.mustCustomer()
	e.mustTenant(cust, "")
	e.mustTenant(other, "")
	member := e.mustUser(authz.Member, cust)
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, cust)
	requests := [][2]string{{"GET", "/me/permissions"}, {"GET", "/customers"}, {"GET", "/tenants"}, {"GET", "/users"},
		{"GET", "/customers/" + other}, {"GET", "/audit-log"}, {"GET", "/invoices"}, {"GET", "/usage"},
		{"GET", "/system-workers"}, {"GET", "/internal-users"}, {"DELETE", "/customers/" + other}}
	answers := func(user string) []string {
		var out []string
		for _, rq := range requests {
			r := e.do(user, rq[0], rq[1], nil)
			body := string(r.Body)
			if rq[1] == "/audit-log" {
				body = "" // the refusals below add to it
			}
			out = append(out, fmt.Sprintf("%s %s = %d %s", rq[0], rq[1], r.Status, requestIDs.ReplaceAllString(body, "")))
		}
		return out
	}
	for _, user := range []string{member, am} {
		before := answers(user)
		for _, ev := range []string{"worker.failed", "manage.tenant", "platform.admin", "customer.delete", "tenant.migration.failed"} {
			if r := e.do(user, "POST", "/me/subscriptions", map[string]any{"eventType": ev}); r.Status != 201 {
				t.Fatalf("subscribe = %d %s", r.Status, r.Body)
			}
		}
		if r := e.do(user, "GET", "/me/subscriptions", nil); r.Status != 200 || strings.Count(string(r.Body), "eventType") != 5 {
			t.Fatalf("subscriptions = %d %s", r.Status, r.Body)
		}
		if diff := cmp.Diff(before, answers(user)); diff != "" {
			t.Errorf("answers changed by subscribing (-before +after):\n%s", diff)
		}
	}
	// and what the member is refused stays refused
	if r := e.do(member, "GET", "/tenants", nil); r.Status != 403 {
		t.Errorf("member GET /tenants = %d, want 403", r.Status)
	}
}

// requestIDs and timestamps differ between two identical answers.
var requestIDs = regexp.MustCompile(`"(requestId|timestamp)":"[^"]*"`)

// Lists never answer 403 for scope: an account manager sees exactly its
// granted customers' tenants, a page at a time.
// spec: R5.7-am, R4.6-customer-side
func TestTenantListScopedInSQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	am := e.mustUser(authz.AccountManager, "")
	a, b := e.mustCustomer(), e.mustCustomer()
	e.mustGrant(am, false, a)
	for i := 0; i < 5; i++ {
		e.mustTenant(a, "")
		e.mustTenant(b, "")
	}
	var seen []string
	cursor := ""
	for {
		r := e.do(am, "GET", "/tenants?limit=2&cursor="+cursor, nil)
		if r.Status != 200 {
			t.Fatalf("list = %d %s", r.Status, r.Body)
		}
		page := r.json(t)
		for _, it := range page["items"].([]any) {
			tn := it.(map[string]any)
			if tn["customerId"] != a {
				t.Fatalf("tenant of customer %v listed to an account manager of %s", tn["customerId"], a)
			}
			seen = append(seen, tn["id"].(string))
		}
		next, _ := page["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if len(seen) != 5 {
		t.Fatalf("listed %d tenants, want 5", len(seen))
	}
}
