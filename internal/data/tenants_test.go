package data_test

import (
	"net/http"
	"slices"
	"testing"
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
