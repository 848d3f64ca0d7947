package adminhttp

import (
	"context"
	"strings"
	"testing"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// infraCallers are one user of each role that matters for the
// internal-infrastructure families, plus a scoped account manager.
func infraCallers(e *env) map[string]string {
	cust := e.mustCustomer()
	m := map[string]string{}
	for _, r := range []authz.Role{authz.PlatformAdmin, authz.InfraOps, authz.FinanceAdmin, authz.ComplianceAdmin, authz.Reader, authz.QAAdmin} {
		m[r.String()] = e.mustUser(r, "")
	}
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, cust)
	m["account_manager"] = am
	m["owner"] = e.mustUser(authz.Owner, cust)
	return m
}

// TestInfraFamilies: who may read and write each internal-infrastructure
// family: never account_manager or qa_admin, never a customer role;
// platform_admin always; infra_ops releases, environment, workers and
// discrepancies but, per the matrix, not plans, meters or user attributes.
//
// spec: R4.6-infra, R5.7-no-infra, R5.7-am
func TestInfraFamilies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := infraCallers(e)
	type fam struct {
		list, create string
		body         func() any
	}
	next := func() string { return strings.ReplaceAll(e.id("n"), "-", "_") }
	families := map[string]fam{
		"plans": {"/plans", "/plans", func() any {
			return map[string]any{"code": "p" + next(), "name": "P", "currency": "EUR", "monthlyFee": 1}
		}},
		"meters":          {"/meters", "/meters", func() any { return map[string]any{"key": "m" + next(), "name": "M", "unit": "u", "aggregation": "sum"} }},
		"releases":        {"/releases", "/releases", func() any { return map[string]any{"version": "3.0." + strings.TrimPrefix(e.id("v"), "v-")} }},
		"environment":     {"/environment", "/environment", func() any { return map[string]any{"name": "V" + strings.ToUpper(next()), "value": "1"} }},
		"user-attributes": {"/user-attributes", "/user-attributes", func() any { return map[string]any{"key": "k" + next(), "label": "K", "type": "boolean"} }},
		"discrepancies":   {"/discrepancies", "/discrepancies", func() any { return map[string]any{"kind": "drift", "summary": "s"} }},
		"system-workers":  {"/system-workers", "/system-workers/webhook-delivery/run", func() any { return nil }},
	}
	// read, write per role and family (200 = allowed, else the refusal)
	want := map[string]map[string][2]int{
		"platform_admin":   {"plans": {200, 200}, "meters": {200, 200}, "releases": {200, 200}, "environment": {200, 200}, "user-attributes": {200, 200}, "discrepancies": {200, 200}, "system-workers": {200, 200}},
		"infra_ops":        {"plans": {403, 403}, "meters": {403, 403}, "releases": {200, 200}, "environment": {200, 200}, "user-attributes": {403, 403}, "discrepancies": {200, 200}, "system-workers": {200, 200}},
		"finance_admin":    {"plans": {200, 200}, "meters": {200, 200}, "releases": {403, 403}, "environment": {403, 403}, "user-attributes": {403, 403}, "discrepancies": {403, 403}, "system-workers": {403, 403}},
		"compliance_admin": {"plans": {200, 403}, "meters": {200, 403}, "releases": {200, 403}, "environment": {200, 403}, "user-attributes": {403, 403}, "discrepancies": {200, 403}, "system-workers": {200, 403}},
		"reader":           {"plans": {200, 403}, "meters": {200, 403}, "releases": {200, 403}, "environment": {200, 403}, "user-attributes": {403, 403}, "discrepancies": {200, 403}, "system-workers": {200, 403}},
		"account_manager":  {},
		"qa_admin":         {},
		"owner":            {},
	}
	for role, fams := range want {
		for name, f := range families {
			exp, ok := fams[name]
			if !ok {
				exp = [2]int{403, 403}
			}
			if r := e.do(c[role], "GET", f.list, nil); !(r.Status == exp[0] || (exp[0] == 200 && r.Status < 300)) {
				t.Errorf("%s GET %s = %d, want %d: %s", role, f.list, r.Status, exp[0], r.Body)
			}
			if r := e.do(c[role], "POST", f.create, f.body()); !(r.Status == exp[1] || (exp[1] == 200 && r.Status < 300)) {
				t.Errorf("%s POST %s = %d, want %d: %s", role, f.create, r.Status, exp[1], r.Body)
			}
		}
	}
}

// TestEnvironmentSecrets: a secret value is sealed, masked in every answer,
// and cannot be turned non-secret without a new value.
func TestEnvironmentSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := infraCallers(e)
	ops := c["infra_ops"]
	for _, body := range []map[string]any{
		{"name": "lower", "value": "x"},
		{"name": "", "value": "x"},
		{"name": "OK", "value": strings.Repeat("x", 33<<10)},
		{"name": "OK", "value": "x", "scope": "prod"},
	} {
		if r := e.do(ops, "POST", "/environment", body); r.Status != 400 {
			t.Errorf("POST %v: %d, want 400", body["name"], r.Status)
		}
	}
	r := e.do(ops, "POST", "/environment", map[string]any{"name": "DB_PASSWORD", "value": "hunter2", "secret": true})
	var v admin.EnvVarView
	decodeInto(t, r, &v)
	if r.Status != 201 || v.Value != admin.SecretMask || strings.Contains(string(r.Body), "hunter2") {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if r := e.do(ops, "POST", "/environment", map[string]any{"name": "DB_PASSWORD", "value": "x"}); r.Status != 409 {
		t.Errorf("duplicate name: %d", r.Status)
	}
	row, _ := e.st.EnvVar(context.Background(), v.ID)
	if row.Value != "" || len(row.ValueSealed) == 0 || strings.Contains(string(row.ValueSealed), "hunter2") {
		t.Fatalf("stored: %+v", row)
	}
	for _, path := range []string{"/environment", "/environment/" + v.ID} {
		if r := e.do(c["reader"], "GET", path, nil); r.Status != 200 || strings.Contains(string(r.Body), "hunter2") {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	if r := e.do(ops, "PATCH", "/environment/"+v.ID, map[string]any{"secret": false}); r.Status != 400 {
		t.Errorf("un-secret without a value: %d", r.Status)
	}
	r = e.do(ops, "PATCH", "/environment/"+v.ID, map[string]any{"secret": false, "value": "public"})
	decodeInto(t, r, &v)
	if r.Status != 200 || v.Value != "public" || v.Secret {
		t.Fatalf("un-secret: %d %s", r.Status, r.Body)
	}
	got, err := e.svc.EnvValue(context.Background(), mustCaller(t, e, ops), v.ID)
	if err != nil || got != "public" {
		t.Fatalf("EnvValue = %q, %v", got, err)
	}
	r = e.do(ops, "PATCH", "/environment/"+v.ID, map[string]any{"secret": true})
	decodeInto(t, r, &v)
	got, err = e.svc.EnvValue(context.Background(), mustCaller(t, e, ops), v.ID)
	if r.Status != 200 || v.Value != admin.SecretMask || err != nil || got != "public" {
		t.Fatalf("re-secret: %d %s; opened %q, %v", r.Status, r.Body, got, err)
	}
}

func mustCaller(t *testing.T, e *env, userID string) *access.Caller {
	t.Helper()
	c, err := e.acc.Load(context.Background(), access.Identity{UserID: userID, GrantID: e.logins.Grant(userID)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReleaseLifecycle: draft → published → withdrawn, nothing else.
func TestReleaseLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ops := infraCallers(e)["infra_ops"]
	for _, v := range []string{"1.0", "01.0.0", "1.0.0 ", "v1.2.3-"} {
		if r := e.do(ops, "POST", "/releases", map[string]any{"version": v}); r.Status != 400 {
			t.Errorf("version %q: %d", v, r.Status)
		}
	}
	r := e.do(ops, "POST", "/releases", map[string]any{"version": "1.4.0-rc.1", "channel": "beta", "notes": "n"})
	var rel struct{ ID, Status, Channel string }
	decodeInto(t, r, &rel)
	if r.Status != 201 || rel.Status != "draft" || rel.Channel != "beta" {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	steps := []struct {
		method, path string
		body         any
		want         int
	}{
		{"POST", "/withdraw", nil, 409},
		{"POST", "/publish", nil, 200},
		{"POST", "/publish", nil, 409},
		{"PATCH", "", map[string]any{"channel": "stable"}, 409},
		{"PATCH", "", map[string]any{"notes": "fixed typo"}, 200},
		{"POST", "/withdraw", nil, 200},
		{"POST", "/publish", nil, 409},
	}
	for i, s := range steps {
		if r := e.do(ops, s.method, "/releases/"+rel.ID+s.path, s.body); r.Status != s.want {
			t.Errorf("step %d %s %s: %d, want %d: %s", i, s.method, s.path, r.Status, s.want, r.Body)
		}
	}
	if r := e.do(ops, "GET", "/releases/00000000-0000-4000-8000-00000000dead", nil); r.Status != 404 {
		t.Errorf("unknown release: %d", r.Status)
	}
}

// TestWorkersAndDiscrepancies: pausing and running workers; the inbox's
// resolve and reopen rules.
func TestWorkersAndDiscrepancies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := infraCallers(e)
	ops := c["infra_ops"]
	r := e.do(ops, "POST", "/system-workers/webhook-delivery/pause", nil)
	var wk struct {
		Paused         bool
		RunRequestedAt *string
	}
	decodeInto(t, r, &wk)
	if r.Status != 200 || !wk.Paused {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	r = e.do(ops, "POST", "/system-workers/webhook-delivery/run", nil)
	decodeInto(t, r, &wk)
	if r.Status != 202 || wk.RunRequestedAt == nil {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	if r := e.do(ops, "POST", "/system-workers/nope/run", nil); r.Status != 404 {
		t.Errorf("unknown worker: %d", r.Status)
	}

	cust := e.mustCustomer()
	for _, body := range []map[string]any{
		{"kind": "Drift!", "summary": "s"},
		{"kind": "drift", "summary": ""},
		{"kind": "drift", "summary": "s", "customerId": "no-such-customer"},
	} {
		if r := e.do(ops, "POST", "/discrepancies", body); r.Status != 400 {
			t.Errorf("POST %v: %d, want 400: %s", body, r.Status, r.Body)
		}
	}
	r = e.do(ops, "POST", "/discrepancies", map[string]any{"kind": "billing_mismatch", "summary": "Totals differ", "customerId": cust})
	var d struct{ ID, Status string }
	decodeInto(t, r, &d)
	if r.Status != 201 || d.Status != "open" {
		t.Fatalf("report: %d %s", r.Status, r.Body)
	}
	steps := []struct {
		path string
		body any
		want int
	}{
		{"/reopen", nil, 409},
		{"/resolve", map[string]any{"resolution": ""}, 400},
		{"/resolve", map[string]any{"resolution": "credited 0.40 EUR"}, 200},
		{"/resolve", map[string]any{"resolution": "again"}, 409},
		{"/reopen", nil, 200},
	}
	for i, s := range steps {
		if r := e.do(ops, "POST", "/discrepancies/"+d.ID+s.path, s.body); r.Status != s.want {
			t.Errorf("step %d %s: %d, want %d: %s", i, s.path, r.Status, s.want, r.Body)
		}
	}
	var open admin.Page[map[string]any]
	decodeInto(t, e.do(c["reader"], "GET", "/discrepancies?status=open", nil), &open)
	if len(open.Items) != 1 {
		t.Fatalf("open items: %+v", open.Items)
	}
	if r := e.do(c["reader"], "POST", "/discrepancies/"+d.ID+"/resolve", map[string]any{"resolution": "x"}); r.Status != 403 {
		t.Errorf("reader resolves: %d", r.Status)
	}
	// focus mode on another customer hides the customer's item (404) but not platform-wide ones
	focused := e.mustUser(authz.InfraOps, "")
	e.mustFocus(focused, e.mustCustomer())
	if r := e.do(focused, "GET", "/discrepancies/"+d.ID, nil); r.Status != 404 {
		t.Errorf("focused elsewhere: %d, want 404", r.Status)
	}
	var lens admin.Page[map[string]any]
	decodeInto(t, e.do(focused, "GET", "/discrepancies", nil), &lens)
	if len(lens.Items) != 0 {
		t.Errorf("focused elsewhere lists %d items", len(lens.Items))
	}
	if r := e.do(ops, "GET", "/discrepancies?status=closed", nil); r.Status != 400 {
		t.Errorf("bad status: %d", r.Status)
	}
}

// TestUserAttributes: enum options, types and key rules.
func TestUserAttributes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := infraCallers(e)["platform_admin"]
	for _, body := range []map[string]any{
		{"key": "Cost", "label": "x", "type": "string"},
		{"key": "cost", "label": "x", "type": "money"},
		{"key": "cost", "label": "x", "type": "enum"},
		{"key": "cost", "label": "x", "type": "enum", "options": []string{"a", "a"}},
		{"key": "cost", "label": "x", "type": "string", "options": []string{"a"}},
		{"key": "cost", "label": "", "type": "string"},
	} {
		if r := e.do(admin, "POST", "/user-attributes", body); r.Status != 400 {
			t.Errorf("POST %v: %d, want 400", body, r.Status)
		}
	}
	r := e.do(admin, "POST", "/user-attributes", map[string]any{"key": "cost_center", "label": "Cost center", "type": "enum",
		"options": []string{"north", "south"}, "required": true})
	var a struct {
		ID      string
		Type    string
		Options []string
	}
	decodeInto(t, r, &a)
	if r.Status != 201 || len(a.Options) != 2 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if r := e.do(admin, "POST", "/user-attributes", map[string]any{"key": "cost_center", "label": "x", "type": "string"}); r.Status != 409 {
		t.Errorf("duplicate key: %d", r.Status)
	}
	if r := e.do(admin, "PATCH", "/user-attributes/"+a.ID, map[string]any{"type": "string", "options": []string{"x"}}); r.Status != 400 {
		t.Errorf("options on a string: %d", r.Status)
	}
	r = e.do(admin, "PATCH", "/user-attributes/"+a.ID, map[string]any{"type": "string"})
	decodeInto(t, r, &a)
	if r.Status != 200 || a.Type != "string" || len(a.Options) != 0 {
		t.Fatalf("to string: %d %s", r.Status, r.Body)
	}
}
