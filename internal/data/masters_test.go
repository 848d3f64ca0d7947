package data_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// listing is the decoded envelope of a master-record listing.
type listing struct {
	Rows       []map[string]any `json:"rows"`
	Total      int              `json:"total"`
	Page       int              `json:"page"`
	PageSize   int              `json:"pageSize"`
	TotalPages int              `json:"totalPages"`
}

func (e *env) list(t *testing.T, user, master, query string) listing {
	t.Helper()
	path := "/api/v1/master-record/" + url.PathEscape(master)
	if query != "" {
		path += "?" + query
	}
	r := e.get(t, path, asUser(user))
	if r.status != http.StatusOK {
		t.Fatalf("GET %s as %s: %d %.400s", path, user, r.status, r.body)
	}
	var l listing
	mustUnmarshal(t, r.body, &l)
	return l
}

func ids(l listing) []string {
	out := []string{}
	for _, r := range l.Rows {
		out = append(out, r["_id"].(string))
	}
	return out
}

// The envelope and the record shape, against a golden file.
// spec: R4.5-list, R2.1-fields, R2.1-custom, R2.1-time, R2.2-envelope
func TestListMasterRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get(t, "/api/v1/master-record/Building?tenantID="+tenAcme+"&pageSize=4", asUser(ownerA))
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	golden(t, "list-building", r.body)

	var l listing
	mustUnmarshal(t, r.body, &l)
	if l.Total != 5 || l.Page != 1 || l.PageSize != 4 || l.TotalPages != 2 || len(l.Rows) != 4 {
		t.Fatalf("envelope = total %d page %d pageSize %d totalPages %d rows %d", l.Total, l.Page, l.PageSize, l.TotalPages, len(l.Rows))
	}
	wantKeys := []string{"_id", "createdAt", "createdBy", "customFields", "id", "isDeleted", "parentID", "projectID", "refId", "slug", "tenantID"}
	ms := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	for _, row := range l.Rows {
		var keys []string
		for k := range row {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("record keys = %v, want exactly %v", keys, wantKeys)
		}
		if row["_id"] != row["id"] {
			t.Errorf("_id %v and id %v differ", row["_id"], row["id"])
		}
		if at, _ := row["createdAt"].(string); !ms.MatchString(at) {
			t.Errorf("createdAt = %v, want ISO 8601 UTC with milliseconds", row["createdAt"])
		}
	}
	if l.Rows[0]["createdAt"] != "2026-01-02T03:04:05.678Z" || l.Rows[0]["parentID"] != nil || l.Rows[1]["parentID"] != "HC" {
		t.Errorf("first rows: %v / %v", l.Rows[0], l.Rows[1])
	}
	// HTP stores "occupied": "yes" (not a boolean) and an undefined key: neither shows
	htp := l.Rows[2]["customFields"].(map[string]any)
	if _, ok := htp["occupied"]; ok || htp["colour"] != nil || htp["floors"] != float64(4) {
		t.Errorf("customFields of HTP = %v, want only the defined, well-typed fields", htp)
	}
	hc := l.Rows[0]["customFields"].(map[string]any)
	if hc["occupied"] != false || hc["handoverDate"] != "2026-09-30" || fmt.Sprint(hc["certifications"]) != "[LEED Gold]" {
		t.Errorf("customFields of HC = %v", hc)
	}
}

// The query parameters of D-master, each alone and together.
// spec: D-master, R2.2-envelope
func TestListMasterRecordsQuery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, query string
		want        []string
		total       int
	}{
		{"Default", "", []string{"HC", "HT", "HTP", "RL", "RLA", "DEP"}, 6},
		{"Tenant", "tenantID=" + tenAcme2, []string{"DEP"}, 1},
		{"Page2", "pageSize=4&page=2", []string{"RLA", "DEP"}, 6},
		{"PastTheEnd", "pageSize=4&page=9", []string{}, 6},
		{"Project", "projectID=prj-lab", []string{"RL", "RLA"}, 2},
		{"Parent", "parentID=HC", []string{"HT"}, 1},
		{"Roots", "parentID=null&tenantID=" + tenAcme, []string{"HC", "RL"}, 2},
		{"IncludeDeleted", "includeDeleted=true&tenantID=" + tenAcme, []string{"HC", "HT", "HTP", "OLD", "RL", "RLA"}, 6},
		{"ExcludeDeleted", "includeDeleted=false&tenantID=" + tenAcme, []string{"HC", "HT", "HTP", "RL", "RLA"}, 5},
		{"Newest", "sort=-createdAt&pageSize=2", []string{"DEP", "RLA"}, 6},
		{"Slug", "sort=slug&tenantID=" + tenAcme, []string{"hc", "ht", "htp", "rl", "rla"}, 5},
		{"RefIDDesc", "sort=-refId&tenantID=" + tenAcme, []string{"RLA", "RL", "HTP", "HT", "HC"}, 5},
		{"CustomNumber", "sort=customFields.floors", []string{"HC", "DEP", "RLA", "HTP", "RL", "HT"}, 6},
		{"CustomNumberDesc", "sort=-customFields.floors&pageSize=2", []string{"HT", "RL"}, 6},
		{"CustomString", "sort=customFields.address&tenantID=" + tenAcme, []string{"HC", "HT", "HTP", "RL", "RLA"}, 5},
		{"Everything", "tenantID=" + tenAcme + "&projectID=prj-tower&parentID=HT&includeDeleted=true&sort=-createdAt&page=1&pageSize=10", []string{"HTP"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := e.list(t, ownerA, "Building", tc.query)
			got := ids(l)
			if tc.name == "Slug" {
				got = got[:0]
				for _, r := range l.Rows {
					got = append(got, r["slug"].(string))
				}
			}
			if !slices.Equal(got, tc.want) || l.Total != tc.total {
				t.Errorf("got %v (total %d), want %v (total %d)", got, l.Total, tc.want, tc.total)
			}
		})
	}
}

// Each caller sees the tenants it may read, filtered in SQL: its own
// customer's for portal roles, its scope's for internal roles.
// spec: D-data-access, R5.7-and, R2.6-resolver
func TestListMasterRecordsScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	acme, globex, all := []string{"HC", "HT", "HTP", "RL", "RLA", "DEP"}, []string{"DCN"}, []string{"HC", "HT", "HTP", "RL", "RLA", "DEP", "DCN"}
	for _, tc := range []struct {
		user string
		want []string
	}{
		{ownerA, acme}, {adminA, acme}, {memberA, acme}, {viewerA, acme}, {billingA, acme},
		{ownerG, globex},
		{platAdm, all}, {readerU, all},
		{acctMgr, acme},
		{qaAdm, []string{"HC", "HT", "HTP", "RL", "RLA"}}, // Acme's tenants on its granted instance only
		{focusU, globex},
	} {
		if got := ids(e.list(t, tc.user, "Building", "")); !slices.Equal(got, tc.want) {
			t.Errorf("%s sees %v, want %v", tc.user, got, tc.want)
		}
	}
	// an account manager without grants reads no tenant: the master does not exist for it
	r := e.get(t, "/api/v1/master-record/Building", asUser(acctMgr0))
	wantError(t, r, http.StatusInternalServerError, "/api/v1/master-record/Building")
	// another customer's tenant named as a filter: nothing of it shows
	r = e.get(t, "/api/v1/master-record/Building?tenantID="+tenGlobex, asUser(ownerA))
	m := wantError(t, r, http.StatusInternalServerError, "/api/v1/master-record/Building")
	if strings.Contains(string(r.body), "DCN") {
		t.Errorf("a record of another customer leaked: %s", r.body)
	}
	if !strings.Contains(detail(m), `"Building" not found`) {
		t.Errorf("detail = %q", detail(m))
	}
}

// An unknown master answers 500 Service Exception naming the master.
// spec: R7.2-master, R7.1-shape
func TestListUnknownMaster(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get(t, "/api/v1/master-record/Elevator", asUser(ownerA))
	m := wantError(t, r, http.StatusInternalServerError, "/api/v1/master-record/Elevator")
	if m["error"].(map[string]any)["summary"] != "Service Exception" || !strings.Contains(detail(m), `Master "Elevator" not found`) {
		t.Fatalf("unknown master: %s", r.body)
	}
	golden(t, "list-unknown-master", r.body)
}

// Bad parameters answer 400 with the 7.1 object naming the problem.
// spec: D-master, R7.1-shape
func TestListMasterRecordsBadParams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct{ name, query, want string }{
		{"ErrPageZero", "page=0", "page must be a whole number"},
		{"ErrPageNotANumber", "page=two", "page must be a whole number"},
		{"ErrPagePlus", "page=+2", "page must be a whole number"},
		{"ErrPageHuge", "page=100000001", "page must be a whole number from 1 to"},
		{"ErrPageSizeTooLarge", "pageSize=1001", "pageSize must be a whole number from 1 to 1000"},
		{"ErrPageSizeNegative", "pageSize=-5", "pageSize must be a whole number"},
		{"ErrPageSizeOverflow", "pageSize=99999999999999999999", "pageSize must be a whole number"},
		{"ErrIncludeDeleted", "includeDeleted=yes", "includeDeleted must be true or false"},
		{"ErrSort", "sort=name", "sort must be createdAt, slug, refId or customFields.<key>"},
		{"ErrSortUnknownCustomField", "sort=customFields.colour", `master Building has no field "colour"`},
		{"ErrSortEmptyCustomField", "sort=customFields.", "sort must be"},
		{"ErrUnknownParameter", "pagesize=10", `unknown parameter "pagesize"`},
		{"ErrRepeated", "page=1&page=2", `parameter "page" is given 2 times`},
		{"ErrEmpty", "tenantID=", `parameter "tenantID" is empty`},
		{"ErrTooLong", "projectID=" + strings.Repeat("x", 129), "projectID is longer than 128 characters"},
		{"ErrSeveral", "page=0&pageSize=0&sort=x", "page must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.get(t, "/api/v1/master-record/Building?"+tc.query, asUser(ownerA))
			m := wantError(t, r, http.StatusBadRequest, "/api/v1/master-record/Building")
			if !strings.Contains(detail(m), tc.want) {
				t.Errorf("detail = %q, want it to contain %q", detail(m), tc.want)
			}
		})
	}
	r := e.get(t, "/api/v1/master-record/Building?page=0&pageSize=1001&includeDeleted=maybe", asUser(ownerA))
	golden(t, "list-bad-params", r.body)
}

// Without credentials the API answers 401; a user without access 403.
// spec: R7.1-shape, D-api-auth
func TestListMasterRecordsAuth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wantError(t, e.get(t, "/api/v1/master-record/Building"), http.StatusUnauthorized, "/api/v1/master-record/Building")
	wantError(t, e.get(t, "/api/v1/master-record/Building", asUser(nobody)), http.StatusForbidden, "/api/v1/master-record/Building")
	wantError(t, e.get(t, "/api/v1/me/tenants", asUser(nobody)), http.StatusForbidden, "/api/v1/me/tenants")
}
