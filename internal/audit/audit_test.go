package audit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// Every kind has its OCSF place: a category, a class and an activity with
// their names, and typeUid = classUid × 100 + activityId.
//
// spec: D-audit-trail
func TestKindsClassified(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds() {
		e := FromRow(&store.AuditEvent{Kind: string(k), Operation: "tenant.update", Decision: "allowed"})
		if e.Category == "" || e.Class == "" || e.Activity == "" || e.TypeUID != e.ClassUID*100+e.ActivityID {
			t.Errorf("%s: %+v", k, e)
		}
		if k.Security() == (k == AdminWrite || k == AccessDenied) {
			t.Errorf("%s: security %v", k, k.Security())
		}
	}
	if Kind("sign_in.nope").Known() {
		t.Error("an unknown kind is known")
	}
}

// An administration write's activity is its operation's verb, whatever
// the operation (the support tools' new ones too), and its target the
// last kind of its resource that names an id.
//
// spec: D-audit-trail
func TestAdminWriteMapping(t *testing.T) {
	t.Parallel()
	for op, want := range map[string]string{
		"customer.create": "Create", "user.invite": "Create", "credit.issue": "Create", "discrepancy.report": "Create",
		"tenant.delete": "Delete", "tenant.member_remove": "Delete", "grant.delete_customer": "Delete", "user.invitation_revoke": "Delete",
		"user.session_end": "Delete", "internal_user.sessions_end": "Delete", "user.second_factor_reset": "Update",
		"instance.database_uri_resolve": "Read", "env_var.value": "Read",
		"tenant.update": "Update", "user.unlock": "Update", "user.mfa_reset": "Update", "webhook.secret_rotate": "Update",
		"customer.transfer_ownership": "Update", "tenant.member_put": "Update", "release.withdraw": "Update",
	} {
		if got := FromRow(&store.AuditEvent{Kind: string(AdminWrite), Operation: op}).Activity; got != want {
			t.Errorf("%s: %s, want %s", op, got, want)
		}
	}
	for res, want := range map[string]Target{
		"tenants/t1":                        {Type: "tenant", ID: "t1"},
		"tenants/t1/members/u1":             {Type: "user", ID: "u1"},
		"customers/c1/settings":             {Type: "customer", ID: "c1"},
		"customers/c1/identity-providers/x": {Type: "identity_provider", ID: "x"},
		"discrepancies/d1":                  {Type: "discrepancy", ID: "d1"},
		"internal-users/u2":                 {Type: "user", ID: "u2"},
		"focus":                             {},
		"":                                  {},
	} {
		if got := TargetOf(res); got != want {
			t.Errorf("%q: %+v, want %+v", res, got, want)
		}
	}
	// a write recorded before operations had its method after the action
	old := FromRow(&store.AuditEvent{Kind: string(AdminWrite), Action: "manage_tenant PATCH", Resource: "tenants/t1"})
	if old.Action != "manage_tenant" || old.Target.ID != "t1" {
		t.Errorf("an earlier write: %+v", old)
	}
}

// Row takes the request's id, client address and user agent; a failure is
// 401 and denied.
//
// spec: D-audit-trail
func TestRowFromRequest(t *testing.T) {
	t.Parallel()
	var row *store.AuditEvent
	h := httpapi.WithRequestID(httpapi.ClientAddress(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		row = Row(r.Context(), time.Unix(0, 0), Entry{Kind: SignIn, Failed: true, Reason: "invalid_credentials", ActorEmail: "x@y.example",
			Details: Details{Method: "password"}})
	})))
	req := httptest.NewRequest(http.MethodPost, "/ui/login", nil)
	req.RemoteAddr, req.Header["User-Agent"] = "203.0.113.7:5555", []string{"Browser/" + strings.Repeat("x", 600)}
	h.ServeHTTP(httptest.NewRecorder(), req)
	if row.SourceIP != "203.0.113.7" || len(row.UserAgent) != httpapi.MaxUserAgent || row.RequestID == "" || row.Decision != "denied" ||
		row.Status != 401 || row.Details != `{"method":"password"}` || row.Kind != "sign_in" {
		t.Fatalf("row = %+v", row)
	}
}

// Prune deletes what is older than the retention, and keeps the rest.
//
// spec: D-audit-retention
func TestPrune(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ctx := context.Background()
	now := time.Now()
	for i, age := range []time.Duration{48 * time.Hour, 30 * time.Hour, time.Hour} {
		r := Row(ctx, now.Add(-age), Entry{Kind: SignIn})
		r.ID = string(rune('a' + i))
		if err := st.AppendAudit(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// an impersonation over for longer than the retention goes with them
	if err := st.CreateOrganization(ctx, &platform.Organization{ID: "o", Name: "O", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: "c", Name: "C", OrgID: "o", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateUser(ctx, &platform.User{ID: "u", OrgID: "o", Email: "u@o.example", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	long := now.Add(-48 * time.Hour)
	if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: "imp", CustomerID: "c", UserID: "u", ActorID: "a", Reason: "r",
		TokenHash: "h", CreatedAt: long, TokenExpiresAt: long, ExpiresAt: long}); err != nil {
		t.Fatal(err)
	}
	if n, err := Prune(ctx, st, 24*time.Hour, now); err != nil || n != 2 {
		t.Fatalf("pruned %d, %v; want 2", n, err)
	}
	if _, err := st.Impersonation(ctx, "imp"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("the impersonation over for 48 hours is still there: %v", err)
	}
	left, _, err := st.AuditEvents(ctx, store.AuditQuery{Scope: authz.Filter{All: true}})
	if err != nil || len(left) != 1 || left[0].ID != "c" {
		t.Fatalf("left %+v %v", left, err)
	}
}
