package graph_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const recordFields = `id customFields parentID slug refId tenantID projectID createdBy createdAt isDeleted`

// TestMasterRecords: the D-master page and the Relay connection over the
// same listing answer what REST answers, within the caller's tenants.
//
// spec: R2.1-fields, R2.1-time, R2.2-envelope, R4.5-list
func TestMasterRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	got := e.gql(ownerA, `{ masterRecords(master: "Building", page: 2, pageSize: 2, sort: "-createdAt") { rows { `+recordFields+` } total page pageSize totalPages } }`, nil)
	if len(got.Errors) > 0 {
		t.Fatal(string(got.Raw))
	}
	status, body := e.rest(ownerA, http.MethodGet, "/data/api/v1/master-record/Building?page=2&pageSize=2&sort=-createdAt", nil)
	if status != 200 {
		t.Fatalf("REST %d %s", status, body)
	}
	var rest map[string]any
	_ = json.Unmarshal(body, &rest)
	for _, row := range rest["rows"].([]any) {
		delete(row.(map[string]any), "_id") // GraphQL names it once, as id
	}
	if diff := cmp.Diff(rest, got.Data["masterRecords"]); diff != "" {
		t.Errorf("REST and GraphQL differ (-REST +GraphQL):\n%s", diff)
	}
	if dig(got.Data, "masterRecords", "total") != 5.0 || dig(got.Data, "masterRecords", "totalPages") != 3.0 {
		t.Errorf("envelope: %s", got.Raw)
	}

	// The connection walks the same order page by page, with any first.
	var ids []any
	after := any(nil)
	for i := 0; i < 10; i++ {
		first := 2
		if i == 1 {
			first = 3 // a cursor that is not a multiple of first
		}
		c := e.gql(ownerA, `query($after: String, $first: Int) { masterRecordConnection(master: "Building", first: $first, after: $after) {
			edges { cursor node { id } } pageInfo { hasNextPage endCursor hasPreviousPage } totalCount } }`,
			map[string]any{"after": after, "first": first})
		if len(c.Errors) > 0 {
			t.Fatal(string(c.Raw))
		}
		for _, ed := range dig(c.Data, "masterRecordConnection", "edges").([]any) {
			ids = append(ids, dig(ed, "node", "id"))
		}
		if dig(c.Data, "masterRecordConnection", "pageInfo", "hasNextPage") != true {
			break
		}
		after = dig(c.Data, "masterRecordConnection", "pageInfo", "endCursor")
	}
	if diff := cmp.Diff([]any{"B1", "B2", "B3", "B4", "B5"}, ids); diff != "" {
		t.Errorf("connection order (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		name, user, query, code string
	}{
		{"UnknownMaster", ownerA, `{ masterRecords(master: "Nope") { total } }`, "NOT_FOUND"},
		{"OtherCustomersMaster", ownerG, `{ masterRecords(master: "Building", filter: {tenantID: "ten-acme"}) { total } }`, "NOT_FOUND"},
		{"BadSort", ownerA, `{ masterRecords(master: "Building", sort: "colour") { total } }`, "BAD_USER_INPUT"},
		{"BadPageSize", ownerA, `{ masterRecords(master: "Building", pageSize: 5000) { total } }`, "BAD_USER_INPUT"},
		{"BadCursor", ownerA, `{ masterRecordConnection(master: "Building", after: "nope") { totalCount } }`, "BAD_USER_INPUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := e.gql(tc.user, tc.query, nil)
			if len(got.Errors) != 1 || got.Errors[0].code() != tc.code {
				t.Errorf("want %s: %s", tc.code, got.Raw)
			}
		})
	}
	// Scope: Globex's owner sees only Globex's building.
	g := e.gql(ownerG, `{ masterRecords(master: "Building") { total rows { id } } }`, nil)
	if dig(g.Data, "masterRecords", "total") != 1.0 || dig(g.Data, "masterRecords", "rows", 0, "id") != "G1" {
		t.Errorf("Globex owner: %s", g.Raw)
	}
}

// TestCxUploadSameAsREST: the cxUpload mutation answers the report REST
// answers for the same rows (valid, dry run, broken rules), and a refused
// or broken upload saves nothing.
//
// spec: R4.5-cx-same, R4.5-cx-cycle, R4.5-cx-parent
func TestCxUploadSameAsREST(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const m = `mutation($in: CxUploadInput!) { cxUpload(input: $in) { scheduleId dryRun status truncated
		summary { received created updated unchanged warnings errors }
		warnings { index rowId field code message value cycle } errors { index rowId field code message value cycle } } }`
	cycle := []any{
		map[string]any{"ID": "A", "Name": "A", "Predecessors": "B"},
		map[string]any{"ID": "B", "Name": "B", "Predecessors": "A"},
		map[string]any{"ID": "C", "Name": "C", "Parent": "ROOT", "Colour": "red"},
	}
	valid := []any{
		map[string]any{"ID": "A", "Name": "A", "Parent": "ROOT"},
		map[string]any{"ID": "B", "Name": "B", "Predecessors": "A FS+2d", "Colour": "red"},
	}
	for _, tc := range []struct {
		name   string
		rows   []any
		dryRun bool
		status string
		rest   int
	}{
		{"Invalid", cycle, false, "invalid", 422},
		{"DryRun", valid, true, "valid", 200},
		{"Applied", valid, false, "applied", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/data/api/v1/cx/upload"
			if tc.dryRun {
				path += "?dryRun=true"
			}
			// REST first for the dry and invalid runs, GraphQL first for the
			// applied run (so REST then reports the rows as unchanged, as
			// GraphQL would).
			gq := e.gql(ownerA, m, map[string]any{"in": map[string]any{"scheduleId": schAcme, "data": tc.rows, "dryRun": tc.dryRun}})
			status, body := e.rest(ownerA, http.MethodPost, path, map[string]any{"scheduleId": schAcme, "data": tc.rows})
			if len(gq.Errors) > 0 {
				t.Fatal(string(gq.Raw))
			}
			if status != tc.rest || dig(gq.Data, "cxUpload", "status") != tc.status {
				t.Fatalf("REST %d, GraphQL %s", status, gq.Raw)
			}
			var rest map[string]any
			_ = json.Unmarshal(body, &rest)
			want := rest
			if status == 422 {
				want = map[string]any{"errors": rest["errors"]}
				got := map[string]any{"errors": dig(gq.Data, "cxUpload", "errors")}
				if diff := cmp.Diff(normalizeIssues(want), normalizeIssues(got)); diff != "" {
					t.Errorf("errors differ (-REST +GraphQL):\n%s", diff)
				}
				return
			}
			got := dig(gq.Data, "cxUpload").(map[string]any)
			if tc.name == "Applied" { // GraphQL applied the rows; REST saw them stored
				if dig(got, "summary", "created") != 2.0 || dig(rest, "summary", "unchanged") != 2.0 {
					t.Errorf("applied: GraphQL %v, REST %v", got["summary"], rest["summary"])
				}
				return
			}
			if diff := cmp.Diff(normalizeIssues(rest["warnings"]), normalizeIssues(got["warnings"])); diff != "" {
				t.Errorf("warnings differ (-REST +GraphQL):\n%s", diff)
			}
			if diff := cmp.Diff(rest["summary"], got["summary"]); diff != "" {
				t.Errorf("summary differs (-REST +GraphQL):\n%s", diff)
			}
		})
	}
	// Refused: a viewer may not upload, another customer's schedule is not found.
	for _, tc := range []struct{ user, code string }{{viewerA, "FORBIDDEN"}, {ownerG, "NOT_FOUND"}, {platAdm, "FORBIDDEN"}} {
		got := e.gql(tc.user, m, map[string]any{"in": map[string]any{"scheduleId": schAcme, "data": valid}})
		if len(got.Errors) != 1 || got.Errors[0].code() != tc.code {
			t.Errorf("%s: want %s: %s", tc.user, tc.code, got.Raw)
		}
	}
	got := e.gql(ownerA, m, map[string]any{"in": map[string]any{"scheduleId": schAcme, "data": []any{}}})
	if len(got.Errors) != 1 || got.Errors[0].code() != "BAD_USER_INPUT" {
		t.Errorf("empty data: %s", got.Raw)
	}
}

// normalizeIssues drops the keys REST omits when empty and GraphQL answers as null.
func normalizeIssues(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if val == nil {
				continue
			}
			out[k] = normalizeIssues(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalizeIssues(x[i])
		}
		return out
	}
	return v
}
