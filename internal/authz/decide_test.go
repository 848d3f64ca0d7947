package authz

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// permissive is a catalog that gives every role full access to every action,
// built past NewCatalog, to show that Decide's own rules hold whatever the
// catalog says.
func permissive() *Catalog {
	c := &Catalog{}
	for r := range c.access {
		for a := range c.access[r] {
			c.access[r][a] = AccessFull
		}
	}
	return c
}

// inScope returns a principal of role r whose scope holds customer c1 and instance i1.
func inScope(r Role) Principal {
	switch {
	case r.Portal():
		return Principal{UserID: "u1", Role: r, CustomerID: "c1"}
	case r.Scoped():
		return Principal{UserID: "u1", Role: r, CustomerGrants: []string{"c0", "c1"}, InstanceGrants: []string{"i1"}}
	}
	return Principal{UserID: "u1", Role: r}
}

// decide resolves p's scope and asks c.
func decide(c *Catalog, p Principal, a Action, r Resource, write bool) Decision {
	sc := ResolveScope(p)
	return c.Decide(&p, &sc, a, r, write)
}

var (
	inC1     = Resource{CustomerID: "c1", InstanceID: "i1"}
	allowed  = func(x Access) Decision { return Decision{Allowed: true, Access: x, Status: 200, Reason: ReasonAllowed} }
	denied   = func(reason string) Decision { return Decision{Status: 403, Reason: reason} }
	notFound = func(reason string) Decision { return Decision{Status: 404, Reason: reason} }
)

// Every cell of the matrix, read and write, through Decide, for a caller whose
// scope holds the resource.
//
// spec: R5.7-matrix, R5.7-and
func TestDecideMatrix(t *testing.T) {
	cells := readMatrixCSV(t)
	c := MustSpecCatalog(t)
	for _, r := range Roles() {
		for _, a := range Actions() {
			cell := cells[[2]string{r.String(), a.String()}]
			for _, write := range []bool{false, true} {
				want := cell == "full" || (cell == "read" && !write)
				got := decide(c, inScope(r), a, inC1, write)
				if got.Allowed != want || (got.Status == 200) != want {
					t.Errorf("%s %s write=%v: %+v, matrix cell %s", r, a, write, got, cell)
				}
				if want && got.Access.String() != cell {
					t.Errorf("%s %s: Access %s, matrix cell %s", r, a, got.Access, cell)
				}
			}
		}
	}
}

// spec: R5.7-never, R4.6-admin-only
func TestDecideAdminOnly(t *testing.T) {
	principals := map[string]Principal{"unscoped": {}, "focus": {FocusCustomerID: "c1"}}
	for _, r := range Roles() {
		p := inScope(r)
		principals[r.String()] = p
		p.FocusCustomerID = "c1"
		principals[r.String()+"+focus"] = p
	}
	resources := []Resource{{}, inC1, {CustomerID: "c2"}}
	for _, c := range []*Catalog{MustSpecCatalog(t), permissive()} {
		for _, a := range []Action{CreateCustomer, TransferTenant, TransferHomeOrg} {
			for _, r := range Roles() {
				for name, p := range principals {
					p.Role = r
					p.CustomerGrants = append(p.CustomerGrants, "c1", "c2")
					for _, res := range resources {
						got := decide(c, p, a, res, true)
						if r == PlatformAdmin {
							if !got.Allowed && res.CustomerID != "c2" {
								t.Errorf("platform_admin (%s) %s %+v: %+v", name, a, res, got)
							}
							continue
						}
						if diff := cmp.Diff(denied(ReasonAdminOnly), got); diff != "" {
							t.Errorf("%s (%s) %s %+v (-want +got):\n%s", r, name, a, res, diff)
						}
					}
				}
			}
		}
	}
}

// spec: R5.7-no-tenant
func TestDecideNoTenantForPortal(t *testing.T) {
	for _, c := range []*Catalog{MustSpecCatalog(t), permissive()} {
		for _, r := range Roles() {
			if !r.Portal() {
				continue
			}
			for _, a := range []Action{CreateTenant, DeleteTenant, TransferTenant} {
				for _, write := range []bool{true, false} {
					got := decide(c, inScope(r), a, inC1, write)
					if got.Allowed || got.Status != 403 {
						t.Errorf("%s %s write=%v: %+v", r, a, write, got)
					}
				}
			}
		}
	}
}

// spec: R5.7-no-infra, R4.6-infra, R5.7-am
func TestDecideInfra(t *testing.T) {
	infra := []Action{ManageCatalog, ManageReleases, ManageInstances, ResolveDatabaseURI,
		ManageSystemWorkers, ManageInternalUsers, ManageUserAttributes, ManageDiscrepancies}
	for _, c := range []*Catalog{MustSpecCatalog(t), permissive()} {
		for _, r := range Roles() {
			if !r.Portal() && !r.Scoped() {
				continue
			}
			for _, a := range infra {
				for _, res := range []Resource{{}, inC1} {
					for _, write := range []bool{true, false} {
						if diff := cmp.Diff(denied(ReasonInfra), decide(c, inScope(r), a, res, write)); diff != "" {
							t.Errorf("%s %s write=%v (-want +got):\n%s", r, a, write, diff)
						}
					}
				}
			}
		}
	}
	// Reachable by platform_admin (all) and infra_ops (the routes the matrix gives it).
	c := MustSpecCatalog(t)
	for _, a := range infra {
		if diff := cmp.Diff(allowed(AccessFull), decide(c, inScope(PlatformAdmin), a, Resource{}, true)); diff != "" {
			t.Errorf("platform_admin %s (-want +got):\n%s", a, diff)
		}
	}
	for _, a := range []Action{ManageReleases, ManageInstances, ResolveDatabaseURI, ManageSystemWorkers, ManageDiscrepancies} {
		if diff := cmp.Diff(allowed(AccessFull), decide(c, inScope(InfraOps), a, Resource{}, true)); diff != "" {
			t.Errorf("infra_ops %s (-want +got):\n%s", a, diff)
		}
	}
}

// spec: R5.7-am, R4.6-customer-side
func TestDecideAccountManager(t *testing.T) {
	c := MustSpecCatalog(t)
	am := inScope(AccountManager)
	customerSide := []Action{CreateTenant, DeleteTenant, ManageTenant, TriggerMigration, ManageCustomerUser,
		SuspendUser, ManageCustomerConfig, ViewBilling, ManageBilling, ViewBilledUnits, ViewUsageUnits, ViewAuditLog, ImpersonateUser}
	for _, a := range customerSide {
		t.Run(a.String(), func(t *testing.T) {
			if diff := cmp.Diff(allowed(AccessFull), decide(c, am, a, Resource{CustomerID: "c1"}, true)); diff != "" {
				t.Errorf("in scope (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(denied(ReasonCustomerOutOfScope), decide(c, am, a, Resource{CustomerID: "c2"}, true)); diff != "" {
				t.Errorf("out of scope (-want +got):\n%s", diff)
			}
		})
	}
	// The platform_admin action set on customer-side routes, except what the
	// matrix keeps for the customer's owner (delete customer, ownership transfer).
	var got, want []Action
	for _, a := range Actions() {
		if decide(c, am, a, Resource{CustomerID: "c1"}, true).Allowed {
			got = append(got, a)
		}
		if !a.Infra() && !a.AdminOnly() && a != DeleteCustomer && a != TransferOwnership &&
			decide(c, inScope(PlatformAdmin), a, Resource{CustomerID: "c1"}, true).Allowed {
			want = append(want, a)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("account_manager actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(customerSide, got); diff != "" {
		t.Errorf("account_manager actions (-customer side +got):\n%s", diff)
	}
}

// spec: R4.6-owner-transfer
func TestDecideOwnerTransfer(t *testing.T) {
	for _, c := range []*Catalog{MustSpecCatalog(t), permissive()} {
		for _, r := range Roles() {
			p := inScope(r)
			p.CustomerGrants = append(p.CustomerGrants, "c1", "c2")
			got := decide(c, p, TransferOwnership, Resource{CustomerID: "c1"}, true)
			want := denied(ReasonOwnerTransfer)
			if r == Owner || r == PlatformAdmin {
				want = allowed(AccessFull)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", r, diff)
			}
		}
	}
	c := MustSpecCatalog(t)
	owner := inScope(Owner)
	if diff := cmp.Diff(notFound(ReasonOtherCustomer), decide(c, owner, TransferOwnership, Resource{CustomerID: "c2"}, true)); diff != "" {
		t.Errorf("owner of another customer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(denied(ReasonNeedsCustomer), decide(c, owner, TransferOwnership, Resource{}, true)); diff != "" {
		t.Errorf("owner, no customer named (-want +got):\n%s", diff)
	}
	focus := Principal{Role: AccountManager, CustomerGrants: []string{"c1"}, FocusCustomerID: "c1"}
	if diff := cmp.Diff(denied(ReasonOwnerTransfer), decide(c, focus, TransferOwnership, Resource{CustomerID: "c1"}, true)); diff != "" {
		t.Errorf("account_manager in focus mode (-want +got):\n%s", diff)
	}
}

// spec: R5.7-strict, R5.7-soft, R7.2-status, R5.7-and, R4.6-id-scope
func TestDecideScope(t *testing.T) {
	am := Principal{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}}
	qa := Principal{Role: QAAdmin, CustomerGrants: []string{"c1"}, InstanceGrants: []string{"i1"}}
	focus := func(p Principal, id string) Principal { p.FocusCustomerID = id; return p }
	tests := []struct {
		name  string
		p     Principal
		a     Action
		r     Resource
		write bool
		want  Decision
	}{
		{"StrictInScope", am, ManageTenant, Resource{CustomerID: "c2"}, true, allowed(AccessFull)},
		{"StrictOutOfScope", am, ManageTenant, Resource{CustomerID: "c3"}, true, denied(ReasonCustomerOutOfScope)},
		{"StrictOutOfScopeRead", am, ViewBilling, Resource{CustomerID: "c3"}, false, denied(ReasonCustomerOutOfScope)},
		{"StrictList", am, ViewBilling, Resource{}, false, allowed(AccessFull)},
		{"StrictNoGrants", Principal{Role: AccountManager}, ManageTenant, Resource{CustomerID: "c1"}, true, denied(ReasonCustomerOutOfScope)},
		{"StrictNoGrantsInstance", Principal{Role: QAAdmin, CustomerGrants: []string{"c1"}}, ManageTenant, Resource{CustomerID: "c1", InstanceID: "i1"}, true, denied(ReasonInstanceOutOfScope)},
		{"IntersectionInFocus", focus(am, "c1"), ManageTenant, Resource{CustomerID: "c1"}, true, allowed(AccessFull)},
		{"IntersectionGrantedOutsideFocus", focus(am, "c1"), ManageTenant, Resource{CustomerID: "c2"}, true, notFound(ReasonCustomerOutOfScope)},
		{"IntersectionNotGranted", focus(am, "c1"), ManageTenant, Resource{CustomerID: "c3"}, true, notFound(ReasonCustomerOutOfScope)},
		{"IntersectionFocusNotGranted", focus(am, "c3"), ManageTenant, Resource{CustomerID: "c3"}, true, notFound(ReasonCustomerOutOfScope)},
		{"FocusModeInFocus", focus(Principal{Role: PlatformAdmin}, "c1"), DeleteCustomer, Resource{CustomerID: "c1"}, true, allowed(AccessFull)},
		{"FocusModeOutOfFocus", focus(Principal{Role: PlatformAdmin}, "c1"), DeleteCustomer, Resource{CustomerID: "c2"}, true, notFound(ReasonCustomerOutOfScope)},
		{"FocusModeList", focus(Principal{Role: FinanceAdmin}, "c1"), ViewBilling, Resource{}, false, allowed(AccessFull)},
		{"FocusModeIgnoresInstances", focus(Principal{Role: InfraOps}, "c1"), ManageInstances, Resource{CustomerID: "c1", InstanceID: "i9"}, true, allowed(AccessFull)},
		{"UnscopedAnyCustomer", Principal{Role: PlatformAdmin}, DeleteTenant, Resource{CustomerID: "c9", InstanceID: "i9"}, true, allowed(AccessFull)},
		{"UnscopedReader", Principal{Role: Reader}, ManageTenant, Resource{CustomerID: "c9"}, false, allowed(AccessRead)},
		{"UnscopedReaderWrite", Principal{Role: Reader}, ManageTenant, Resource{CustomerID: "c9"}, true, denied(ReasonReadOnly)},
		{"AndBothInScope", qa, DeleteTenant, Resource{CustomerID: "c1", InstanceID: "i1"}, true, allowed(AccessFull)},
		{"AndCustomerOutside", qa, DeleteTenant, Resource{CustomerID: "c2", InstanceID: "i1"}, true, denied(ReasonCustomerOutOfScope)},
		{"AndInstanceOutside", qa, DeleteTenant, Resource{CustomerID: "c1", InstanceID: "i2"}, true, denied(ReasonInstanceOutOfScope)},
		{"AndInstanceOnly", qa, CreateTenant, Resource{InstanceID: "i1"}, true, allowed(AccessFull)},
		{"AndInstanceOnlyOutside", qa, CreateTenant, Resource{InstanceID: "i2"}, true, denied(ReasonInstanceOutOfScope)},
		{"AndSoftInstanceOutside", focus(qa, "c1"), DeleteTenant, Resource{CustomerID: "c1", InstanceID: "i2"}, true, notFound(ReasonInstanceOutOfScope)},
		{"AccountManagerHasNoInstanceAxis", am, ManageTenant, Resource{CustomerID: "c1", InstanceID: "i9"}, true, allowed(AccessFull)},
		{"QAAdminAuditScoped", qa, ViewAuditLog, Resource{CustomerID: "c2"}, false, denied(ReasonCustomerOutOfScope)},
		{"PortalOwnCustomer", Principal{Role: Admin, CustomerID: "c1"}, ManageCustomerConfig, Resource{CustomerID: "c1"}, true, allowed(AccessFull)},
		{"PortalOtherCustomer", Principal{Role: Admin, CustomerID: "c1"}, ManageCustomerConfig, Resource{CustomerID: "c2"}, true, notFound(ReasonOtherCustomer)},
		{"PortalAuditOwnCustomer", Principal{Role: Viewer, CustomerID: "c1"}, ViewAuditLog, Resource{CustomerID: "c1"}, false, allowed(AccessRead)},
		{"PortalAuditOtherCustomer", Principal{Role: Viewer, CustomerID: "c1"}, ViewAuditLog, Resource{CustomerID: "c2"}, false, notFound(ReasonOtherCustomer)},
		{"PortalForbiddenBeforeScope", Principal{Role: Viewer, CustomerID: "c1"}, ManageBilling, Resource{CustomerID: "c2"}, true, denied(ReasonNoAccess)},
		{"PortalIgnoresGrantsAndFocus", Principal{Role: Owner, CustomerID: "c1", CustomerGrants: []string{"c2"}, FocusCustomerID: "c2"}, ManageTenant, Resource{CustomerID: "c2"}, true, notFound(ReasonOtherCustomer)},
		{"OwnerDeletesOwnCustomer", Principal{Role: Owner, CustomerID: "c1"}, DeleteCustomer, Resource{CustomerID: "c1"}, true, allowed(AccessFull)},
		{"OwnerDeletesOtherCustomer", Principal{Role: Owner, CustomerID: "c1"}, DeleteCustomer, Resource{CustomerID: "c2"}, true, notFound(ReasonOtherCustomer)},
	}
	c := MustSpecCatalog(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, decide(c, tt.p, tt.a, tt.r, tt.write)); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
}

// Decide fails closed on a missing or malformed input.
func TestDecideFailsClosed(t *testing.T) {
	c := MustSpecCatalog(t)
	am := Principal{Role: AccountManager, CustomerGrants: []string{"c1"}}
	var nilCatalog *Catalog
	tests := []struct {
		name string
		got  Decision
		want Decision
	}{
		{"NoPrincipal", c.Decide(nil, &Scope{}, ViewUsageUnits, Resource{}, false), denied(ReasonNoPrincipal)},
		{"NoCatalog", nilCatalog.Decide(&Principal{Role: PlatformAdmin}, &Scope{}, ViewUsageUnits, Resource{}, false), denied(ReasonNoCatalog)},
		{"ZeroPrincipal", c.Decide(&Principal{}, &Scope{}, ViewUsageUnits, Resource{}, false), denied(ReasonUnknownRole)},
		{"UnknownRole", c.Decide(&Principal{Role: Role(99)}, &Scope{}, ViewUsageUnits, Resource{}, false), denied(ReasonUnknownRole)},
		{"UnknownAction", c.Decide(&Principal{Role: PlatformAdmin}, &Scope{}, Action(0), Resource{}, false), denied(ReasonUnknownAction)},
		{"ScopedRoleNilScope", c.Decide(&am, nil, ManageTenant, Resource{CustomerID: "c1"}, true), denied(ReasonNoScope)},
		{"ScopedRoleUnscopedScope", c.Decide(&am, &Scope{}, ManageTenant, Resource{}, true), denied(ReasonNoScope)},
		{"PortalWithoutCustomer", decide(c, Principal{Role: Owner}, ViewUsageUnits, Resource{}, false), denied(ReasonNoHomeCustomer)},
		{"PortalDeleteCustomerUnnamed", decide(c, Principal{Role: Owner, CustomerID: "c1"}, DeleteCustomer, Resource{}, true), denied(ReasonNeedsCustomer)},
		{"UnscopedNilScope", c.Decide(&Principal{Role: Reader}, nil, ManageTenant, Resource{CustomerID: "c1"}, false), allowed(AccessRead)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
}

// Decide allocates nothing, allowed or denied.
func TestDecideAllocs(t *testing.T) {
	c := MustSpecCatalog(t)
	grants := make([]string, 200)
	for i := range grants {
		grants[i] = "customer-" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	cases := []struct {
		p Principal
		r Resource
	}{
		{Principal{Role: PlatformAdmin}, Resource{CustomerID: "x"}},
		{Principal{Role: AccountManager, CustomerGrants: grants}, Resource{CustomerID: grants[150]}},
		{Principal{Role: AccountManager, CustomerGrants: grants}, Resource{CustomerID: "nope"}},
		{Principal{Role: QAAdmin, CustomerGrants: grants, InstanceGrants: grants}, Resource{CustomerID: grants[3], InstanceID: grants[4]}},
		{Principal{Role: Owner, CustomerID: "c1"}, Resource{CustomerID: "c2"}},
	}
	for _, tc := range cases {
		sc := ResolveScope(tc.p)
		var d Decision
		if n := testing.AllocsPerRun(100, func() { d = c.Decide(&tc.p, &sc, ManageTenant, tc.r, true) }); n != 0 {
			t.Errorf("%s: %v allocations per Decide (%+v)", tc.p.Role, n, d)
		}
	}
}

// A resource that does not exist answers what one outside the scope would:
// 403 to a role that does not hold the action and to a strict scope, 404
// otherwise; never allowed.
//
// spec: R4.6-id-scope, R7.2-status
func TestDecideMissing(t *testing.T) {
	c := MustSpecCatalog(t)
	for _, r := range Roles() {
		for _, focus := range []string{"", "c1"} {
			p := inScope(r)
			p.FocusCustomerID = focus
			sc := ResolveScope(p)
			for _, a := range Actions() {
				for _, write := range []bool{false, true} {
					got := c.DecideMissing(&p, &sc, a, write)
					outside := c.Decide(&p, &sc, a, Resource{CustomerID: "c-outside", InstanceID: "i-outside"}, write)
					switch {
					case got.Allowed:
						t.Fatalf("%s %s: a missing resource was allowed", r, a)
					case outside.Allowed && sc.Mode == Unscoped:
						// unscoped: every existing id is in scope; a missing one is 404
						if got.Status != 404 {
							t.Errorf("%s %s write=%v: %+v, want 404", r, a, write, got)
						}
					case got.Status != outside.Status:
						t.Errorf("%s (focus %q) %s write=%v: missing %+v, outside %+v", r, focus, a, write, got, outside)
					}
				}
			}
		}
	}
	if d := c.DecideMissing(nil, nil, ViewBilling, false); d.Allowed || d.Status != 403 {
		t.Errorf("no principal: %+v", d)
	}
}

// Only platform_admin suspends, reactivates or deletes a customer's owner;
// everyone else who could act on the user gets 403, and a caller outside the
// scope gets the scope's answer (it does not learn who the owner is).
//
// spec: R5.7-matrix
func TestDecideOwnerProtected(t *testing.T) {
	c := MustSpecCatalog(t)
	owner := Resource{CustomerID: "c1", Owner: true}
	for _, r := range Roles() {
		for _, a := range []Action{SuspendUser, ManageCustomerUser} {
			p := inScope(r)
			plain := decide(c, p, a, Resource{CustomerID: "c1"}, true)
			got := decide(c, p, a, owner, true)
			switch {
			case r == PlatformAdmin:
				if !got.Allowed {
					t.Errorf("platform_admin %s on the owner: %+v", a, got)
				}
			case !plain.Allowed:
				if diff := cmp.Diff(plain, got); diff != "" {
					t.Errorf("%s %s: refused either way, with the same answer (-plain +owner):\n%s", r, a, diff)
				}
			default:
				if diff := cmp.Diff(denied(ReasonOwnerProtected), got); diff != "" {
					t.Errorf("%s %s on the owner (-want +got):\n%s", r, a, diff)
				}
			}
		}
	}
	// outside the scope, the scope answers
	if diff := cmp.Diff(notFound(ReasonOtherCustomer), decide(c, inScope(Admin), SuspendUser, Resource{CustomerID: "c2", Owner: true}, true)); diff != "" {
		t.Errorf("admin of another customer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(denied(ReasonCustomerOutOfScope), decide(c, inScope(AccountManager), SuspendUser, Resource{CustomerID: "c9", Owner: true}, true)); diff != "" {
		t.Errorf("account_manager out of scope (-want +got):\n%s", diff)
	}
}

// No internal role uploads cx data, whatever the catalog says; the
// customer's owner, admin and member do, on their own customer only.
//
// spec: R5.7-no-infra
func TestDecideUploadCustomerOnly(t *testing.T) {
	for _, c := range []*Catalog{MustSpecCatalog(t), permissive()} {
		for _, r := range Roles() {
			got := decide(c, inScope(r), UploadCxData, inC1, true)
			switch {
			case !r.Portal():
				if diff := cmp.Diff(denied(ReasonCustomerOnly), got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", r, diff)
				}
			case c.Access(r, UploadCxData) == AccessFull:
				if !got.Allowed {
					t.Errorf("%s: %+v", r, got)
				}
				if other := decide(c, inScope(r), UploadCxData, Resource{CustomerID: "c2"}, true); other.Status != 404 {
					t.Errorf("%s into another customer: %+v, want 404", r, other)
				}
			}
		}
	}
}
