package data_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/platform/platform/internal/data"
)

type myTenants struct {
	User struct {
		UserID, Role, CustomerID string
	} `json:"user"`
	Tenants []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		CanUpload bool   `json:"canUpload"`
		Projects  []struct{ ID, Name string }
		Masters   []struct {
			Name        string
			RecordCount int
		}
		Schedules []struct {
			ID       string
			RowCount int
		}
	} `json:"tenants"`
}

// GET /api/v1/me/tenants lists the tenants the caller may read with their
// projects, masters and schedules, and whether it may upload into them.
// spec: D-data-access
func TestMyTenants(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get(t, "/api/v1/me/tenants", asUser(ownerA))
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	golden(t, "me-tenants-owner", r.body)

	for _, tc := range []struct {
		user      string
		tenants   []string
		canUpload bool
	}{
		{ownerA, []string{tenAcme, tenAcme2}, true},
		{adminA, []string{tenAcme, tenAcme2}, true},
		{memberA, []string{tenAcme, tenAcme2}, true},
		{viewerA, []string{tenAcme, tenAcme2}, false},
		{billingA, []string{tenAcme, tenAcme2}, false},
		{ownerG, []string{tenGlobex}, true},
		{platAdm, []string{tenGlobex, tenAcme, tenAcme2}, false},
		{acctMgr, []string{tenAcme, tenAcme2}, false},
		{acctMgr0, []string{}, false},
		{qaAdm, []string{tenAcme}, false},
		{focusU, []string{tenGlobex}, false},
	} {
		var got myTenants
		r := e.get(t, "/api/v1/me/tenants", asUser(tc.user))
		if r.status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.user, r.status, r.body)
		}
		mustUnmarshal(t, r.body, &got)
		ids := []string{}
		for _, tn := range got.Tenants {
			ids = append(ids, tn.ID)
			if tn.CanUpload != tc.canUpload {
				t.Errorf("%s: canUpload on %s = %v, want %v", tc.user, tn.ID, tn.CanUpload, tc.canUpload)
			}
		}
		if !slices.Equal(ids, tc.tenants) {
			t.Errorf("%s: tenants %v, want %v", tc.user, ids, tc.tenants)
		}
	}
	wantError(t, e.get(t, "/api/v1/me/tenants"), http.StatusUnauthorized, "/api/v1/me/tenants")
}

// GET /api/v1/me/tenants answers at most data.MaxMyTenants tenants (here
// lowered to 2), the first by name with their own projects, masters and
// schedules, and says that there are more; a caller within the bound gets
// them all and truncated false (D-request-bounds).
// spec: D-data-access
func TestMyTenantsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	data.SetMaxTenants(e.svc, 2)
	var got struct {
		myTenants
		Truncated bool `json:"truncated"`
	}
	mustUnmarshal(t, e.get(t, "/api/v1/me/tenants", asUser(platAdm)).body, &got)
	var ids []string
	for _, tn := range got.Tenants {
		ids = append(ids, tn.ID)
	}
	if !got.Truncated || !slices.Equal(ids, []string{tenGlobex, tenAcme}) {
		t.Fatalf("platform admin: %v truncated %v, want the first two by name and truncated", ids, got.Truncated)
	}
	if p := got.Tenants[1].Projects; len(p) != 2 || len(got.Tenants[1].Schedules) != 2 || len(got.Tenants[0].Schedules) != 1 {
		t.Errorf("the tenants' own projects and schedules: %+v", got.Tenants)
	}
	got.Truncated = true
	mustUnmarshal(t, e.get(t, "/api/v1/me/tenants", asUser(ownerA)).body, &got)
	if got.Truncated || len(got.Tenants) != 2 {
		t.Errorf("owner within the bound: %d tenants, truncated %v", len(got.Tenants), got.Truncated)
	}
}
