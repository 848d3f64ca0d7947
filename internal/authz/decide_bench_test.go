package authz

import (
	"fmt"
	"testing"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	"github.com/casbin/casbin/v2/util"
)

// benchGrants returns n customer ids shaped like UUIDs.
func benchGrants(prefix string, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%s%04d-7a1c-4f5e-9d2b-1c3e5a7b9d0f", prefix, i)
	}
	return ids
}

var sink Decision

// go test ./internal/authz -run xxx -bench . -benchmem
func BenchmarkDecide(b *testing.B) {
	c := SpecCatalog()
	customers := benchGrants("c", 200)
	instances := benchGrants("i", 200)
	cases := []struct {
		name  string
		p     Principal
		a     Action
		r     Resource
		allow bool
	}{
		{"platform_admin", Principal{Role: PlatformAdmin}, ManageTenant, Resource{CustomerID: customers[17]}, true},
		{"account_manager_200/in_scope", Principal{Role: AccountManager, CustomerGrants: customers}, ManageTenant, Resource{CustomerID: customers[137]}, true},
		{"account_manager_200/out_of_scope", Principal{Role: AccountManager, CustomerGrants: customers}, ManageTenant, Resource{CustomerID: "d0000-7a1c-4f5e-9d2b-1c3e5a7b9d0f"}, false},
		{"account_manager_200/infra_denied", Principal{Role: AccountManager, CustomerGrants: customers}, ManageReleases, Resource{}, false},
		{"qa_admin_200x200", Principal{Role: QAAdmin, CustomerGrants: customers, InstanceGrants: instances}, DeleteTenant, Resource{CustomerID: customers[42], InstanceID: instances[99]}, true},
		{"focus_mode", Principal{Role: PlatformAdmin, FocusCustomerID: customers[3]}, ManageTenant, Resource{CustomerID: customers[4]}, false},
		{"owner", Principal{Role: Owner, CustomerID: customers[5]}, ManageCustomerConfig, Resource{CustomerID: customers[5]}, true},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.p
			sc := ResolveScope(p)
			if d := c.Decide(&p, &sc, bc.a, bc.r, true); d.Allowed != bc.allow {
				b.Fatalf("Decide = %+v, want allowed %v", d, bc.allow)
			}
			b.ReportAllocs()
			for b.Loop() {
				sink = c.Decide(&p, &sc, bc.a, bc.r, true)
			}
		})
	}
	b.Run("resolve_scope_and_decide/account_manager_200", func(b *testing.B) {
		p := Principal{Role: AccountManager, CustomerGrants: customers}
		r := Resource{CustomerID: customers[137]}
		b.ReportAllocs()
		for b.Loop() {
			sc := ResolveScope(p)
			sink = c.Decide(&p, &sc, ManageTenant, r, true)
		}
	})
}

// casbinModel is casbin's RBAC with domains, a domain being a customer. Role
// permissions hold in every domain (policy domain "*"), as in the catalog;
// the user's role assignments carry the scope, one per granted customer.
// platform_admin is assigned in domain "*", matched with keyMatch.
const casbinModel = `
[request_definition]
r = sub, dom, obj, act

[policy_definition]
p = sub, dom, obj, act

[role_definition]
g = _, _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub, r.dom) && keyMatch(r.dom, p.dom) && r.obj == p.obj && r.act == p.act
`

// BenchmarkCasbinRBACWithDomains does the check of BenchmarkDecide with
// casbin: the same roles and actions (one policy per role, action and
// read/write), a user holding account_manager in 200 domains.
// qa_admin's second axis (instances) has no counterpart in this model.
func BenchmarkCasbinRBACWithDomains(b *testing.B) {
	m, err := model.NewModelFromString(casbinModel)
	if err != nil {
		b.Fatal(err)
	}
	e, err := casbin.NewEnforcer(m)
	if err != nil {
		b.Fatal(err)
	}
	e.EnableLog(false)
	e.AddNamedDomainMatchingFunc("g", "keyMatch", util.KeyMatch)
	var policies [][]string
	for _, entry := range SpecMatrix() {
		policies = append(policies, []string{entry.Role.String(), "*", entry.Action.String(), "read"})
		if entry.Access == AccessFull {
			policies = append(policies, []string{entry.Role.String(), "*", entry.Action.String(), "write"})
		}
	}
	if _, err := e.AddPolicies(policies); err != nil {
		b.Fatal(err)
	}
	customers := benchGrants("c", 200)
	groupings := [][]string{{"pa", "platform_admin", "*"}}
	for _, id := range customers {
		groupings = append(groupings, []string{"am", "account_manager", id})
	}
	if _, err := e.AddGroupingPolicies(groupings); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name, user, dom, obj string
		allow                bool
	}{
		{"platform_admin", "pa", customers[17], "manage_tenant", true},
		{"account_manager_200/in_scope", "am", customers[137], "manage_tenant", true},
		{"account_manager_200/out_of_scope", "am", "d0000-7a1c-4f5e-9d2b-1c3e5a7b9d0f", "manage_tenant", false},
		{"account_manager_200/infra_denied", "am", customers[137], "manage_releases", false},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			ok, err := e.Enforce(bc.user, bc.dom, bc.obj, "write")
			if err != nil || ok != bc.allow {
				b.Fatalf("Enforce = %v, %v; want %v", ok, err, bc.allow)
			}
			b.ReportAllocs()
			for b.Loop() {
				ok, _ = e.Enforce(bc.user, bc.dom, bc.obj, "write")
			}
			_ = ok
		})
	}
}
