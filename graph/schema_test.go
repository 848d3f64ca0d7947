package graph_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/internal/authz"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenSDL: the SDL each role serves (_service { sdl }), which a
// federation router composes, is testdata/sdl/<role>.graphql: the console
// subgraph, the data subgraph (the tenant role) and the whole graph
// (ROLE=all); go test ./graph -update rewrites them after a schema change,
// and graph/router composes the supergraph from the two subgraphs'.
func TestGoldenSDL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, role := range []struct {
		name, path string
		entities   []string
	}{
		{"console", "/graphql-console", []string{"Customer", "Tenant", "Instance"}},
		{"tenant", "/graphql-data", []string{"Tenant", "MasterRecord"}},
		{"all", "/graphql", []string{"Customer", "Tenant", "Instance", "MasterRecord"}},
	} {
		got := e.gqlAt(role.path, platAdm, `{ _service { sdl } }`, nil)
		sdl, _ := dig(got.Data, "_service", "sdl").(string)
		if sdl == "" {
			t.Fatalf("%s: no SDL: %s", role.name, got.Raw)
		}
		path := filepath.Join("testdata", "sdl", role.name+".graphql")
		if *update {
			if err := os.WriteFile(path, []byte(sdl), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), sdl); diff != "" {
			t.Errorf("SDL differs from %s (-want +got); run go test ./graph -update:\n%s", path, diff)
		}
		for _, entity := range role.entities {
			if !strings.Contains(sdl, "type "+entity+` @key(fields: "id")`) {
				t.Errorf("%s: %s is not an entity in the SDL", role.name, entity)
			}
		}
	}
}

// loadSchema parses the whole graph's schema (schema/*.graphqls and
// schema/data/*.graphqls) with the federation directives the federation
// plugin adds.
func loadSchema(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "schema", "*.graphqls"))
	data, derr := filepath.Glob(filepath.Join("..", "schema", "data", "*.graphqls"))
	files = append(files, data...)
	if err != nil || derr != nil || len(files) == 0 {
		t.Fatalf("schema files: %v %v", err, derr)
	}
	srcs := []*ast.Source{{Name: "federation", BuiltIn: true, Input: `
		directive @key(fields: String!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE
		directive @shareable repeatable on OBJECT | FIELD_DEFINITION
		directive @link(url: String!, import: [String!]) repeatable on SCHEMA`}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, &ast.Source{Name: f, Input: string(b)})
	}
	s, gerr := gqlparser.LoadSchema(srcs...)
	if gerr != nil {
		t.Fatal(gerr)
	}
	return s
}

// guardedTypes hold customer, billing or tenant data.
var guardedTypes = []string{"Customer", "CustomerPage", "Tenant", "TenantPage", "Instance", "InstancePage", "Usage", "UsagePage",
	"BilledTotal", "CustomerUser", "CustomerUserPage", "Grant", "AuditEvent", "AuditEventPage", "MasterRecordPage",
	"MasterRecordConnection", "CxUploadResult", "InternalUser", "InternalUserPage", "SSOSettings", "Branding", "IdentityProvider", "Webhook",
	"WebhookWithSecret", "WebhookDelivery", "ServiceAccount", "ServiceAccountWithSecret", "Invoice", "InvoicePage", "Payment",
	"PaymentPage", "Credit", "CreditPage", "BillingSetup", "TenantMember", "TenantMigration", "Email", "EmailPage", "Discrepancy", "CxSchedule",
	"Group", "GroupPage", "GroupMember", "GroupMemberPage"}

// allowlist: fields that return guarded data without a directive, and why
// that is safe. Keep it short.
var allowlist = map[string]string{
	"Tenant.customer":                         "loaded by CustomersByIDs, which drops customers outside the caller's scope",
	"Instance.customer":                       "loaded by CustomersByIDs, scope-filtered",
	"CustomerUser.customer":                   "loaded by CustomersByIDs, scope-filtered",
	"Usage.customer":                          "loaded by CustomersByIDs, scope-filtered; usage is read under view_usage_units",
	"ServiceAccountWithSecret.serviceAccount": "part of the answer of a mutation guarded by @authz",
	"WebhookWithSecret.webhook":               "part of the answer of a mutation guarded by @authz",
	"Webhook.deliveries":                      "ListWebhookDeliveries checks manage_customer_config on the webhook's customer",
	"Grant.customer":                          "loaded by CustomersByIDs, scope-filtered; grants are read under manage_internal_users",
	"Grant.instance":                          "loaded by InstancesByIDs, scope-filtered",
	"Grant.user":                              "loaded by InternalUsersByIDs, which refuses roles without manage_internal_users",
	"Query.masterRecords":                     "tenant data under D-data-access, filtered by readFilter in SQL; not a catalog action",
	"Query.masterRecordConnection":            "the same listing as masterRecords",
	"Tenant.masterRecords":                    "the same listing as masterRecords, of the one tenant",
	"Tenant.cxSchedules":                      "loaded by data.Service.TenantsByIDs, which keeps the tenants the caller may read (D-data-access)",
	"Mutation.cxUpload":                       "D-data-access upload rule (owner, admin, member of the schedule's customer), checked by data.Service.Upload",
	"Mutation.enterFocus":                     "returns the caller's own focus and scope; the service refuses portal roles and customers outside grants",
	"Mutation.leaveFocus":                     "the caller's own focus",
	"Query.focus":                             "the caller's own focus",
	"Entity.findManyCustomerByIDs":            "federation entity batch; CustomersByIDs filters by scope",
	"Entity.findManyTenantByIDs":              "federation entity batch; TenantsByIDs filters by scope",
	"Entity.findManyInstanceByIDs":            "federation entity batch; InstancesByIDs filters by scope",
	"Entity.findManyMasterRecordByIDs":        "federation entity batch; RecordsByIDs filters by readFilter in SQL",
}

// TestSchemaLint: every field that returns customer, billing or tenant
// data carries @authz or @redact, or is on the allowlist with a reason;
// billedAmount is always redacted; the Action and Permission enums are
// exactly the catalog's actions.
//
// spec: R5.7-redact
func TestSchemaLint(t *testing.T) {
	t.Parallel()
	s := loadSchema(t)
	var missing []string
	for _, def := range s.Types {
		if def.Kind != ast.Object || def.BuiltIn || strings.HasPrefix(def.Name, "_") {
			continue
		}
		wrapper := strings.HasSuffix(def.Name, "Page") || strings.HasSuffix(def.Name, "Connection") || strings.HasSuffix(def.Name, "Edge")
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "_") {
				continue
			}
			name := def.Name + "." + f.Name
			if f.Name == "billedAmount" && f.Directives.ForName("redact") == nil {
				t.Errorf("%s is not redacted", name)
			}
			if wrapper || !slices.Contains(guardedTypes, f.Type.Name()) {
				continue // a page's items are guarded where the page is returned
			}
			if f.Directives.ForName("authz") != nil || f.Directives.ForName("redact") != nil {
				continue
			}
			if _, ok := allowlist[name]; !ok {
				missing = append(missing, name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("fields returning customer, billing or tenant data without @authz/@redact or an allowlist entry:\n  %s",
			strings.Join(missing, "\n  "))
	}
	for name := range allowlist {
		typ, field, _ := strings.Cut(name, ".")
		if typ == "Entity" {
			continue
		}
		if def := s.Types[typ]; def == nil || def.Fields.ForName(field) == nil {
			t.Errorf("allowlist entry %s names no field", name)
		}
	}
	var want []string
	for _, a := range authz.Actions() {
		want = append(want, strings.ToUpper(a.String()))
	}
	for _, enum := range []string{"Action", "Permission"} {
		var got []string
		for _, v := range s.Types[enum].EnumValues {
			got = append(got, v.Name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("enum %s differs from the catalog's actions (-want +got):\n%s", enum, diff)
		}
	}
}
