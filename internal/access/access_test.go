package access_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

var ctx = context.Background()

func newService(t *testing.T) (*access.Service, *store.Store) {
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
	must(st.CreateCustomer(ctx, &platform.Customer{ID: "acme", Name: "Acme", OrgID: "org-acme", CreatedAt: now}))
	for _, u := range []*platform.User{
		{ID: "u-plain", OrgID: "org-acme", Email: "plain@acme.example", CreatedAt: now, UpdatedAt: now},
		{ID: "u-stranger", OrgID: "org-other", Email: "s@other.example", CreatedAt: now, UpdatedAt: now},
	} {
		must(st.CreateUser(ctx, u))
	}
	must(st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "u-am", Role: "account_manager", CreatedAt: now}))
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: "u-am", TargetID: "acme", GrantedAt: now}))
	acc, err := access.New(ctx, st)
	must(err)
	return acc, st
}

// spec: R5.7-claims
func TestLoad(t *testing.T) {
	acc, _ := newService(t)
	t.Run("DefaultPortalRoleForCustomerOrgUser", func(t *testing.T) {
		c, err := acc.Load(ctx, "u-plain")
		if err != nil {
			t.Fatal(err)
		}
		if c.Role != authz.Member || c.CustomerID != "acme" || c.Scope.Mode != authz.Own {
			t.Errorf("caller = %+v", c)
		}
	})
	t.Run("ScopedRoleWithGrants", func(t *testing.T) {
		c, err := acc.Load(ctx, "u-am")
		if err != nil {
			t.Fatal(err)
		}
		if c.Role != authz.AccountManager || c.Scope.Source != authz.SourceAccountManager || !c.Scope.HasCustomer("acme") {
			t.Errorf("caller = %+v", c)
		}
	})
	for _, id := range []string{"u-stranger", "no-such-user"} {
		t.Run("ErrNoAccess/"+id, func(t *testing.T) {
			_, err := acc.Load(ctx, id)
			if platform.ErrorCode(err) != platform.EFORBIDDEN {
				t.Errorf("err = %v, want forbidden", err)
			}
		})
	}
}

func TestRequire(t *testing.T) {
	acc, _ := newService(t)
	fixed := func(id string, err error) access.Authenticator {
		return func(*http.Request) (string, error) { return id, err }
	}
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
		{"NoCredentials", h(fixed("", nil)), http.StatusUnauthorized},
		{"BadCredentialsStopTheChain", h(fixed("", platform.Errorf(platform.EUNAUTHORIZED, "bad")), fixed("u-am", nil)), http.StatusUnauthorized},
		{"SecondAuthenticatorFinds", h(fixed("", nil), fixed("u-am", nil)), http.StatusOK},
		{"UserWithoutAccess", h(fixed("u-stranger", nil)), http.StatusForbidden},
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
	acc, st := newService(t)
	c, err := acc.Load(ctx, "u-am")
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
	events, err := st.AuditEvents(ctx, store.AuditQuery{Unscoped: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Decision != "denied" || events[0].Status != 403 || events[0].ActorID != "u-am" ||
		events[0].CustomerID != "globex" {
		t.Errorf("audit = %+v", events)
	}
}
