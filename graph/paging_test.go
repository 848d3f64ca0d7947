package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// TestPageSizes: every list takes the page sizes of its kind
// (platform.PageLimit, D-paging), through REST (?limit=) and GraphQL
// (first, or page and pageSize) alike: 1 and the largest are answered; 0,
// one more than the largest and, on REST, anything but decimal digits are
// refused with the same message naming the parameter, 400 /
// BAD_USER_INPUT. GraphQL refused what REST refused where it once cut a
// page silently (releases, discrepancies, deliveries, payments, credits).
func TestPageSizes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	wh := "wh-paging"
	if err := e.st.CreateWebhook(context.Background(), &store.Webhook{ID: wh, CustomerID: custAcme, URL: "https://hooks.acme.example/p",
		Events: []string{"tenant.created"}, SecretSealed: []byte{1}, Active: true, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, rest, query, param string
		max                      int
	}{
		{"customers", "/api/v1/customers", `{ customers(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"tenants", "/api/v1/tenants", `{ tenants(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"instances", "/api/v1/instances", `{ instances(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"users", "/api/v1/users", `{ users(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"internal users", "/api/v1/internal-users", `{ internalUsers(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"invoices", "/api/v1/invoices", `{ invoices(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"customer invoices", "/api/v1/customers/" + custAcme + "/invoices", `{ customer(id: "cust-acme") { invoices(first: %d) { items { id } } } }`, "first", platform.MaxPageSize},
		{"payments", "/api/v1/customers/" + custAcme + "/payments", `{ customer(id: "cust-acme") { payments(first: %d) { items { id } } } }`, "first", platform.MaxPageSize},
		{"credits", "/api/v1/customers/" + custAcme + "/credits", `{ customer(id: "cust-acme") { credits(first: %d) { items { id } } } }`, "first", platform.MaxPageSize},
		{"usage", "/api/v1/usage", `{ usage(first: %d) { items { id } } }`, "first", platform.MaxPageSize},
		{"customer usage", "/api/v1/customers/" + custAcme + "/usage", `{ customer(id: "cust-acme") { usage(first: %d) { items { id } } } }`, "first", platform.MaxPageSize},
		{"audit log", "/api/v1/audit-log", `{ auditLog(first: %d) { items { id } } }`, "first", platform.MaxLogPageSize},
		{"e-mail log", "/api/v1/email-log", `{ emailLog(first: %d) { items { id } } }`, "first", platform.MaxLogPageSize},
		{"releases", "/api/v1/releases", `{ releases(first: %d) { id } }`, "first", platform.MaxPageSize},
		{"discrepancies", "/api/v1/discrepancies", `{ discrepancies(first: %d) { id } }`, "first", platform.MaxPageSize},
		{"deliveries", "/api/v1/webhooks/" + wh + "/deliveries", `{ webhook(id: "` + wh + `") { deliveries(first: %d) { id } } }`, "first", platform.MaxPageSize},
		{"edge", "", `{ customer(id: "cust-acme") { tenants(first: %d) { id } } }`, "first", platform.MaxChildren},
		{"record connection", "", `{ masterRecordConnection(master: "orders", first: %d) { totalCount } }`, "first", platform.MaxPageSize},
		{"record page size", "", `{ masterRecords(master: "orders", pageSize: %d) { total } }`, "pageSize", platform.MaxPageSize},
		{"record page", "", `{ masterRecords(master: "orders", page: %d) { total } }`, "page", platform.MaxPageNumber},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusal := fmt.Sprintf("%s must be a whole number from 1 to %d", tc.param, tc.max)
			for _, n := range []int{1, tc.max, 0, tc.max + 1} {
				refused := n < 1 || n > tc.max
				got := e.gql(platAdm, fmt.Sprintf(tc.query, n), nil)
				bad := slices.Contains(got.codes(), "BAD_USER_INPUT")
				if bad != refused || refused && (len(got.Errors) != 1 || got.Errors[0].Message != refusal) {
					t.Errorf("GraphQL %s: %d: %s", tc.param, n, got.Raw)
				}
				if tc.rest != "" {
					restRefused(t, e, fmt.Sprintf("%s?limit=%d", tc.rest, n), refused, strings.Replace(refusal, "first", "limit", 1))
				}
			}
			if tc.rest != "" {
				for _, raw := range []string{"+5", "-1", "5x", "1e3", "%205"} {
					restRefused(t, e, tc.rest+"?limit="+raw, true, strings.Replace(refusal, "first", "limit", 1))
				}
			}
		})
	}
}

// restRefused gets path as the platform admin and checks it is answered,
// or refused with 400 and the refusal as its one detail.
func restRefused(t *testing.T, e *env, path string, refused bool, refusal string) {
	t.Helper()
	status, body := e.rest(platAdm, http.MethodGet, path, nil)
	var out struct {
		Error struct{ Detail []string } `json:"error"`
	}
	_ = json.Unmarshal(body, &out)
	switch {
	case !refused && status != http.StatusOK:
		t.Errorf("REST %s = %d %s, want 200", path, status, body)
	case refused && (status != http.StatusBadRequest || !slices.Equal(out.Error.Detail, []string{refusal})):
		t.Errorf("REST %s = %d %s, want 400 %q", path, status, body, refusal)
	}
}
