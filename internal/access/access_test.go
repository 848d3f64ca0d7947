package access_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

var ctx = context.Background()

// signedIn are the identities of the fixture users (user id → a live grant).
type signedIn map[string]access.Identity

func newService(t *testing.T) (*access.Service, *store.Store, signedIn) {
	t.Helper()
	st := storetest.New(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-acme", Name: "Acme", CreatedAt: now}))
	must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-other", Name: "Other", CreatedAt: now}))
	must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-admin", Name: "Platform", CreatedAt: now}))
	must(st.CreateCustomer(ctx, &platform.Customer{ID: "acme", Name: "Acme", OrgID: "org-acme", CreatedAt: now}))
	for _, u := range []*platform.User{
		{ID: "u-plain", OrgID: "org-acme", Email: "plain@acme.example", CreatedAt: now, UpdatedAt: now},
		{ID: "u-stranger", OrgID: "org-other", Email: "s@other.example", CreatedAt: now, UpdatedAt: now},
		{ID: "u-am", OrgID: "org-admin", Email: "am@platform.example", CreatedAt: now, UpdatedAt: now},
	} {
		must(st.CreateUser(ctx, u))
	}
	must(st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "u-am", Role: "account_manager", CreatedAt: now}))
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: "u-am", TargetID: "acme", GrantedAt: now}))
	acc, err := access.New(ctx, st)
	must(err)
	ids := signedIn{}
	for _, u := range []string{"u-plain", "u-stranger", "u-am"} {
		ids[u] = access.Identity{UserID: u, GrantID: storetest.MustGrant(t, st, u)}
	}
	return acc, st, ids
}

// spec: R5.7-claims
func TestLoad(t *testing.T) {
	t.Parallel()
	acc, st, ids := newService(t)
	t.Run("DefaultPortalRoleForCustomerOrgUser", func(t *testing.T) {
		c, err := acc.Load(ctx, ids["u-plain"])
		if err != nil {
			t.Fatal(err)
		}
		if c.Role != authz.Member || c.CustomerID != "acme" || c.Scope.Mode != authz.Own {
			t.Errorf("caller = %+v", c)
		}
	})
	t.Run("ScopedRoleWithGrants", func(t *testing.T) {
		c, err := acc.Load(ctx, ids["u-am"])
		if err != nil {
			t.Fatal(err)
		}
		if c.Role != authz.AccountManager || c.Scope.Source != authz.SourceAccountManager || !c.Scope.HasCustomer("acme") {
			t.Errorf("caller = %+v", c)
		}
	})
	t.Run("ErrNoAccess", func(t *testing.T) {
		_, err := acc.Load(ctx, ids["u-stranger"])
		if platform.ErrorCode(err) != platform.EFORBIDDEN {
			t.Errorf("err = %v, want forbidden", err)
		}
	})
	// Credentials that no longer hold are refused as credentials (401), not
	// as a lack of access.
	for name, id := range map[string]access.Identity{
		"NoSuchUser":    {UserID: "no-such-user", GrantID: ids["u-am"].GrantID},
		"NoGrant":       {UserID: "u-am"},
		"ForeignGrant":  {UserID: "u-am", GrantID: ids["u-plain"].GrantID},
		"UnknownGrant":  {UserID: "u-am", GrantID: "grant-made-up"},
		"NoUserNoGrant": {},
	} {
		t.Run("ErrCredentials/"+name, func(t *testing.T) {
			if _, err := acc.Load(ctx, id); platform.ErrorCode(err) != platform.EUNAUTHORIZED {
				t.Errorf("err = %v, want unauthorized", err)
			}
		})
	}
	t.Run("ErrSuspended", func(t *testing.T) {
		if err := st.SetUserSuspended(ctx, "u-plain", time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := acc.Load(ctx, ids["u-plain"]); platform.ErrorCode(err) != platform.EUNAUTHORIZED {
			t.Errorf("err = %v, want unauthorized", err)
		}
	})
}

func TestRequire(t *testing.T) {
	t.Parallel()
	acc, _, ids := newService(t)
	fixed := func(id access.Identity, err error) access.Authenticator {
		return func(*http.Request) (access.Identity, error) { return id, err }
	}
	none := access.Identity{}
	h := func(auths ...access.Authenticator) http.Handler {
		return acc.Require(auths...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_ = json.NewEncoder(w).Encode(access.MustCaller(r.Context()).Role)
		}))
	}
	tests := []struct {
		name   string
		h      http.Handler
		status int
	}{
		{"NoCredentials", h(fixed(none, nil)), http.StatusUnauthorized},
		{"BadCredentialsStopTheChain", h(fixed(none, platform.Errorf(platform.EUNAUTHORIZED, "bad")), fixed(ids["u-am"], nil)), http.StatusUnauthorized},
		{"SecondAuthenticatorFinds", h(fixed(none, nil), fixed(ids["u-am"], nil)), http.StatusOK},
		{"UserWithoutAccess", h(fixed(ids["u-stranger"], nil)), http.StatusForbidden},
		{"RevokedGrant", h(fixed(access.Identity{UserID: "u-am", GrantID: "grant-made-up"}, nil)), http.StatusUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/x", nil))
			if rec.Code != tc.status {
				t.Fatalf("status = %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == http.StatusUnauthorized && rec.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}

// A denial is answered with the status of the scope mode and written to the audit log.
// spec: R5.7-strict
func TestCheckAuditsDenial(t *testing.T) {
	t.Parallel()
	acc, st, ids := newService(t)
	c, err := acc.Load(ctx, ids["u-am"])
	if err != nil {
		t.Fatal(err)
	}
	if err := acc.Check(ctx, c, authz.ManageTenant, authz.Resource{CustomerID: "acme"}, true); err != nil {
		t.Fatalf("in scope: %v", err)
	}
	err = acc.Check(ctx, c, authz.ManageTenant, authz.Resource{CustomerID: "globex"}, true)
	if platform.ErrorCode(err) != platform.EFORBIDDEN {
		t.Fatalf("out of scope: %v, want forbidden", err)
	}
	events, _, err := st.AuditEvents(ctx, store.AuditQuery{Scope: authz.Filter{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Decision != "denied" || events[0].Status != 403 || events[0].ActorID != "u-am" ||
		events[0].CustomerID != "globex" {
		t.Errorf("audit = %+v", events)
	}
}

// auditConn records, when the audit log is written, whether the write's
// context has a deadline and has ended.
type auditConn struct {
	store.Conn
	mu     sync.Mutex
	writes []auditWrite
}

type auditWrite struct {
	deadline bool
	err      error
}

func (c *auditConn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	if strings.Contains(q, "INSERT INTO audit_log") {
		_, deadline := ctx.Deadline()
		c.mu.Lock()
		c.writes = append(c.writes, auditWrite{deadline: deadline, err: ctx.Err()})
		c.mu.Unlock()
	}
	return c.Conn.Exec(ctx, q, args...)
}

// TestAuditWriteBounded: the audit record of a request is written when the
// request's context has ended (the client hung up), under a context of its
// own that has a deadline, so the write neither gets lost nor runs without
// end (D-request-bounds).
func TestAuditWriteBounded(t *testing.T) {
	t.Parallel()
	base := storetest.New(t)
	conn := &auditConn{Conn: base.Conn()}
	acc, err := access.New(ctx, store.New(conn))
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	acc.Audit(ended, &access.Caller{Principal: authz.Principal{UserID: "u-1"}}, "manage_tenant PATCH", "tenants/t-1", "",
		authz.Decision{Allowed: true, Status: 200, Reason: authz.ReasonAllowed})
	conn.mu.Lock()
	defer conn.mu.Unlock()
	if len(conn.writes) != 1 {
		t.Fatalf("%d audit writes, want 1", len(conn.writes))
	}
	if w := conn.writes[0]; !w.deadline || w.err != nil {
		t.Errorf("the audit write ran with deadline=%v, err=%v; want a live context with a deadline", w.deadline, w.err)
	}
	events, _, err := base.AuditEvents(ctx, store.AuditQuery{Scope: authz.Filter{All: true}})
	if err != nil || len(events) != 1 || events[0].Resource != "tenants/t-1" {
		t.Fatalf("audit log = %+v %v", events, err)
	}
}
