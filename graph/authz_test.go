package graph_test

import (
	"slices"
	"testing"
)

// TestAuthzDirective runs each @authz field as roles and scope modes that
// may and may not resolve it, through the handler.
//
// spec: R5.7-strict, R5.7-soft, R7.2-status, R4.6-id-scope, R5.7-no-infra, R4.6-admin-only
func TestAuthzDirective(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const customerQ = `query($id: ID!) { customer(id: $id) { id name } }`
	const grantsQ = `query($id: ID!) { customer(id: $id) { id grants { granteeId } } }`
	const settingsQ = `query($id: ID!) { customer(id: $id) { id settings } }`
	const instanceQ = `{ tenants { items { id instance { id } } } }`
	for _, tc := range []struct {
		name  string
		user  string
		query string
		vars  map[string]any
		// wantCodes are the errors' codes; empty: none.
		wantCodes []string
		// wantData: a path that must hold a non-null value.
		wantData []any
		// wantNull: a path that must be null.
		wantNull []any
	}{
		{name: "OK/platform_admin/customer", user: platAdm, query: customerQ, vars: map[string]any{"id": custGlobex}, wantData: []any{"customer", "name"}},
		{name: "OK/account_manager/granted", user: acctMgr, query: customerQ, vars: map[string]any{"id": custAcme}, wantData: []any{"customer", "name"}},
		{name: "Strict/account_manager/other customer", user: acctMgr, query: customerQ, vars: map[string]any{"id": custGlobex},
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"customer"}},
		{name: "Strict/account_manager/missing customer", user: acctMgr, query: customerQ, vars: map[string]any{"id": "cust-nope"},
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"customer"}},
		{name: "Soft/focus mode/other customer", user: focusU, query: customerQ, vars: map[string]any{"id": custAcme},
			wantCodes: []string{"NOT_FOUND"}, wantNull: []any{"customer"}},
		{name: "OK/focus mode/focus customer", user: focusU, query: customerQ, vars: map[string]any{"id": custGlobex}, wantData: []any{"customer", "name"}},
		{name: "Own/owner/other customer", user: ownerA, query: customerQ, vars: map[string]any{"id": custGlobex},
			wantCodes: []string{"NOT_FOUND"}, wantNull: []any{"customer"}},
		{name: "OK/owner/own customer", user: ownerA, query: customerQ, vars: map[string]any{"id": custAcme}, wantData: []any{"customer", "name"}},
		// A field of an object: the parent stays, the field is null with the error.
		{name: "OK/platform_admin/grants", user: platAdm, query: grantsQ, vars: map[string]any{"id": custAcme}, wantData: []any{"customer", "grants", 0, "granteeId"}},
		{name: "Field/account_manager/grants is infrastructure", user: acctMgr, query: grantsQ, vars: map[string]any{"id": custAcme},
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"customer", "id"}, wantNull: []any{"customer", "grants"}},
		{name: "Field/owner/grants", user: ownerA, query: grantsQ, vars: map[string]any{"id": custAcme},
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"customer", "id"}, wantNull: []any{"customer", "grants"}},
		{name: "OK/owner/own settings", user: ownerA, query: settingsQ, vars: map[string]any{"id": custAcme}, wantData: []any{"customer", "id"}},
		{name: "Field/viewer/settings", user: viewerA, query: settingsQ, vars: map[string]any{"id": custAcme},
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"customer", "id"}, wantNull: []any{"customer", "settings"}},
		{name: "OK/platform_admin/tenant instance", user: platAdm, query: instanceQ, wantData: []any{"tenants", "items", 1, "instance", "id"}},
		// qa_admin reads the instances it may create tenants on (D-instance-reads); a customer role reads none
		{name: "OK/qa_admin/tenant instance in scope", user: qaAdm, query: instanceQ, wantData: []any{"tenants", "items", 0, "instance", "id"}},
		{name: "Field/owner/tenant instance is infrastructure", user: ownerA, query: instanceQ,
			wantCodes: []string{"FORBIDDEN", "FORBIDDEN"}, wantData: []any{"tenants", "items", 0, "id"}, wantNull: []any{"tenants", "items", 0, "instance"}},
		// Root fields: the role must hold the action at all.
		{name: "Root/owner/grants", user: ownerA, query: `{ grants { granteeId } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "OK/reader/grants read only", user: readerU, query: `{ grants { granteeId } }`, wantData: []any{"grants"}},
		{name: "Root/finance_admin/tenants", user: financeAdm, query: `{ tenants { items { id } } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "Root/account_manager/createCustomer", user: acctMgr, query: `mutation { createCustomer(input: {name: "X"}) { id } }`,
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"createCustomer"}},
		{name: "Root/reader/createGrant read only", user: readerU,
			query:     `mutation { createGrant(input: {userId: "u-account-manager", customerId: "cust-globex"}) { granteeId } }`,
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"createGrant"}},
		{name: "Root/member/auditLog", user: memberA, query: `{ auditLog { items { id } } }`, wantCodes: []string{"FORBIDDEN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.gql(tc.user, tc.query, tc.vars).expect(t, tc.wantCodes, tc.wantData, tc.wantNull)
		})
	}
}

// expect checks an answer of 200 with exactly the errors' codes wantCodes,
// a value at the path wantData and null at wantNull (either path may be
// nil), each error with a message and a request id.
func (got gqlResponse) expect(t *testing.T, wantCodes []string, wantData, wantNull []any) {
	t.Helper()
	if got.Status != 200 {
		t.Fatalf("status %d: %s", got.Status, got.Raw)
	}
	if !slices.Equal(got.codes(), wantCodes) {
		t.Errorf("codes = %v, want %v: %s", got.codes(), wantCodes, got.Raw)
	}
	if wantData != nil && dig(got.Data, wantData...) == nil {
		t.Errorf("%v is null: %s", wantData, got.Raw)
	}
	if wantNull != nil && dig(got.Data, wantNull...) != nil {
		t.Errorf("%v is not null: %s", wantNull, got.Raw)
	}
	for _, er := range got.Errors {
		if er.Extensions["requestId"] == nil || er.Message == "" {
			t.Errorf("error without message or request id: %+v", er)
		}
	}
}

// TestAuthzListsFilterByScope: lists are filtered by scope in the service
// and never refuse for scope.
//
// spec: R5.7-and, R4.6-customer-side
func TestAuthzListsFilterByScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		user string
		want []string
	}{
		{platAdm, []string{tenAcme, tenAcme2, tenGlobex}},
		{acctMgr, []string{tenAcme, tenAcme2}},
		{qaAdm, []string{tenAcme}},
		{focusU, []string{tenGlobex}},
		{ownerA, []string{tenAcme, tenAcme2}},
		{ownerG, []string{tenGlobex}},
	} {
		t.Run(tc.user, func(t *testing.T) {
			got := e.gql(tc.user, `{ tenants(first: 100) { items { id customer { id } } } }`, nil)
			if len(got.Errors) > 0 {
				t.Fatalf("errors: %s", got.Raw)
			}
			var ids []string
			for _, it := range dig(got.Data, "tenants", "items").([]any) {
				ids = append(ids, dig(it, "id").(string))
				if dig(it, "customer", "id") == nil {
					t.Errorf("tenant %v without its customer: %s", dig(it, "id"), got.Raw)
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, tc.want) {
				t.Errorf("tenants = %v, want %v", ids, tc.want)
			}
		})
	}
}

// TestRedaction: billedAmount is null without view_billed_units, in lists
// and on customers, and the units stay.
//
// spec: R5.7-redact
func TestRedaction(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const q = `{ usage { items { customerId units billedAmount } } customer(id: "cust-acme") { usage { items { billedAmount } } billedTotals { billedAmount } } }`
	for _, tc := range []struct {
		user   string
		billed bool
	}{
		{platAdm, true}, {acctMgr, true}, {financeAdm, true}, {complAdm, true}, {readerU, true},
		{ownerA, true}, {billingA, true}, {viewerA, false}, {memberA, false}, {qaAdm, false},
	} {
		t.Run(tc.user, func(t *testing.T) {
			got := e.gql(tc.user, q, nil)
			items, _ := dig(got.Data, "usage", "items").([]any)
			if len(items) == 0 {
				t.Fatalf("no usage rows: %s", got.Raw)
			}
			for _, it := range items {
				if dig(it, "units") == nil {
					t.Errorf("units missing: %s", got.Raw)
				}
				if (dig(it, "billedAmount") != nil) != tc.billed {
					t.Errorf("billedAmount = %v, want shown=%v", dig(it, "billedAmount"), tc.billed)
				}
			}
			if got := dig(got.Data, "customer", "usage", "items", 0, "billedAmount"); (got != nil) != tc.billed {
				t.Errorf("customer usage billedAmount = %v, want shown=%v", got, tc.billed)
			}
			totals := dig(got.Data, "customer", "billedTotals")
			if tc.billed && dig(totals, 0, "billedAmount") == nil {
				t.Errorf("billedTotals hidden from %s: %s", tc.user, got.Raw)
			}
			if !tc.billed && totals != nil {
				t.Errorf("billedTotals shown to %s: %s", tc.user, got.Raw)
			}
		})
	}
}
