package authz

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spec: R2.6-source, R5.7-strict, R5.7-soft, R5.7-and
func TestResolveScope(t *testing.T) {
	tests := []struct {
		name string
		p    Principal
		want Scope
	}{
		{"PlatformAdminUnscoped", Principal{Role: PlatformAdmin}, Scope{}},
		{"InfraOpsUnscoped", Principal{Role: InfraOps, CustomerGrants: []string{"c1"}}, Scope{}},
		{"ReaderUnscoped", Principal{Role: Reader}, Scope{}},
		{"AccountManagerGrants", Principal{Role: AccountManager, CustomerGrants: []string{"c3", "c1", "c2", "c1", ""}, InstanceGrants: []string{"i1"}},
			Scope{Source: SourceAccountManager, CustomerIDs: []string{"c1", "c2", "c3"}, Mode: Strict}},
		{"AccountManagerNoGrants", Principal{Role: AccountManager},
			Scope{Source: SourceAccountManager, Mode: Strict}},
		{"QAAdminGrants", Principal{Role: QAAdmin, CustomerGrants: []string{"c2", "c1"}, InstanceGrants: []string{"i9", "i1"}},
			Scope{Source: SourceAccountManager, CustomerIDs: []string{"c1", "c2"}, InstanceIDs: []string{"i1", "i9"}, InstanceScoped: true, Mode: Strict}},
		{"FocusPlatformAdmin", Principal{Role: PlatformAdmin, FocusCustomerID: "c7"},
			Scope{Source: SourceFocusMode, CustomerIDs: []string{"c7"}, Mode: Soft}},
		{"FocusFinanceAdmin", Principal{Role: FinanceAdmin, FocusCustomerID: "c7"},
			Scope{Source: SourceFocusMode, CustomerIDs: []string{"c7"}, Mode: Soft}},
		{"FocusAccountManagerInGrants", Principal{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}, FocusCustomerID: "c2"},
			Scope{Source: SourceIntersection, CustomerIDs: []string{"c2"}, Mode: Soft}},
		{"FocusAccountManagerOutsideGrants", Principal{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}, FocusCustomerID: "c9"},
			Scope{Source: SourceIntersection, Mode: Soft}},
		{"FocusQAAdmin", Principal{Role: QAAdmin, CustomerGrants: []string{"c1", "c2"}, InstanceGrants: []string{"i1"}, FocusCustomerID: "c1"},
			Scope{Source: SourceIntersection, CustomerIDs: []string{"c1"}, InstanceIDs: []string{"i1"}, InstanceScoped: true, Mode: Soft}},
		{"PortalOwnCustomer", Principal{Role: Owner, CustomerID: "c1", CustomerGrants: []string{"c2"}, FocusCustomerID: "c3"},
			Scope{CustomerIDs: []string{"c1"}, Mode: Own}},
		{"PortalWithoutCustomer", Principal{Role: Viewer}, Scope{Mode: Own}},
		{"ZeroPrincipal", Principal{}, Scope{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResolveScope(tt.p)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveScope (-want +got):\n%s", diff)
			}
			switch got.Source {
			case "", SourceAccountManager, SourceFocusMode, SourceIntersection:
			default:
				t.Errorf("Source %q is not a spec source", got.Source)
			}
			if (got.Source == "") != (got.Mode == Unscoped || got.Mode == Own) {
				t.Errorf("Source %q with Mode %s: only an unscoped or own-customer scope has no source", got.Source, got.Mode)
			}
		})
	}
}

// The caller's grant slices are not reordered by ResolveScope.
func TestResolveScopeCopies(t *testing.T) {
	grants := []string{"b", "a"}
	ResolveScope(Principal{Role: AccountManager, CustomerGrants: grants})
	if diff := cmp.Diff([]string{"b", "a"}, grants); diff != "" {
		t.Errorf("grants changed (-want +got):\n%s", diff)
	}
}

func TestModeString(t *testing.T) {
	var got []string
	for _, m := range []Mode{Unscoped, Strict, Soft, Own, Mode(9)} {
		got = append(got, m.String())
	}
	if diff := cmp.Diff([]string{"unscoped", "strict", "soft", "own", "Mode(9)"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Allows and Filter state one rule: a listing filtered by Filter holds
// exactly the resources Allows lets through, for every scope ResolveScope
// makes. The filter is evaluated here as the store's SQL condition reads
// (customer IN ids AND (instance IS NULL OR instance IN ids)).
//
// spec: R5.7-and, R4.6-id-scope
func TestScopeAllowsAndFilterAgree(t *testing.T) {
	sqlLike := func(f Filter, customer, instance string) bool {
		in := func(ids []string, id string) bool {
			for _, x := range ids {
				if x == id {
					return true
				}
			}
			return false
		}
		switch {
		case f.All:
			return true
		case !in(f.CustomerIDs, customer):
			return false
		}
		return !f.InstanceScoped || instance == "" || in(f.InstanceIDs, instance)
	}
	principals := []Principal{
		{Role: PlatformAdmin}, {Role: Reader}, {Role: PlatformAdmin, FocusCustomerID: "c2"},
		{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}}, {Role: AccountManager},
		{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}, FocusCustomerID: "c2"},
		{Role: QAAdmin, CustomerGrants: []string{"c1"}, InstanceGrants: []string{"i1"}}, {Role: QAAdmin, CustomerGrants: []string{"c1"}},
		{Role: QAAdmin, CustomerGrants: []string{"c1", "c2"}, InstanceGrants: []string{"i1"}, FocusCustomerID: "c1"},
		{Role: Owner, CustomerID: "c1"}, {Role: Viewer},
	}
	for _, p := range principals {
		sc := ResolveScope(p)
		f := sc.Filter()
		for _, customer := range []string{"c1", "c2", "c3", ""} {
			for _, instance := range []string{"", "i1", "i2"} {
				allows := sc.Allows(customer, instance)
				if got := sqlLike(f, customer, instance); got != allows {
					t.Errorf("%+v: %s/%s: Allows %v, Filter %v (%+v)", p, customer, instance, allows, got, f)
				}
			}
		}
	}
	// the rule itself, for the cases that matter
	qa := ResolveScope(Principal{Role: QAAdmin, CustomerGrants: []string{"c1"}, InstanceGrants: []string{"i1"}})
	am := ResolveScope(Principal{Role: AccountManager, CustomerGrants: []string{"c1"}})
	noGrants := ResolveScope(Principal{Role: QAAdmin, CustomerGrants: []string{"c1"}})
	all := ResolveScope(Principal{Role: PlatformAdmin})
	own := ResolveScope(Principal{Role: Admin, CustomerID: "c1"})
	for _, tc := range []struct {
		name               string
		sc                 Scope
		customer, instance string
		want               bool
	}{
		{"QAAdminGrantedInstance", qa, "c1", "i1", true},
		{"QAAdminOtherInstance", qa, "c1", "i2", false},
		{"QAAdminNoInstance", qa, "c1", "", true},
		{"QAAdminOtherCustomer", qa, "c2", "i1", false},
		{"QAAdminWithoutInstanceGrants", noGrants, "c1", "i1", false},
		{"AccountManagerAnyInstance", am, "c1", "i2", true},
		{"AccountManagerOtherCustomer", am, "c2", "", false},
		{"Unscoped", all, "c9", "i9", true},
		{"OwnCustomer", own, "c1", "i2", true},
		{"OtherCustomer", own, "c2", "", false},
	} {
		if got := tc.sc.Allows(tc.customer, tc.instance); got != tc.want {
			t.Errorf("%s: Allows(%s, %s) = %v", tc.name, tc.customer, tc.instance, got)
		}
	}
	if !(Filter{}).Empty() || own.Filter().Empty() {
		t.Error("the zero Filter is empty; an own-customer filter is not")
	}
	if all.Filter().Empty() || !all.Filter().All {
		t.Error("an unscoped filter lets everything through")
	}
	if f := (&Scope{Mode: Own}).Filter(); !f.Empty() {
		t.Errorf("a portal user without a customer sees nothing, got %+v", f)
	}
}
