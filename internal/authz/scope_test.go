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
			Scope{Source: SourceAccountManager, CustomerIDs: []string{"c1", "c2"}, InstanceIDs: []string{"i1", "i9"}, Mode: Strict}},
		{"FocusPlatformAdmin", Principal{Role: PlatformAdmin, FocusCustomerID: "c7"},
			Scope{Source: SourceFocusMode, CustomerIDs: []string{"c7"}, Mode: Soft}},
		{"FocusFinanceAdmin", Principal{Role: FinanceAdmin, FocusCustomerID: "c7"},
			Scope{Source: SourceFocusMode, CustomerIDs: []string{"c7"}, Mode: Soft}},
		{"FocusAccountManagerInGrants", Principal{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}, FocusCustomerID: "c2"},
			Scope{Source: SourceIntersection, CustomerIDs: []string{"c2"}, Mode: Soft}},
		{"FocusAccountManagerOutsideGrants", Principal{Role: AccountManager, CustomerGrants: []string{"c1", "c2"}, FocusCustomerID: "c9"},
			Scope{Source: SourceIntersection, Mode: Soft}},
		{"FocusQAAdmin", Principal{Role: QAAdmin, CustomerGrants: []string{"c1", "c2"}, InstanceGrants: []string{"i1"}, FocusCustomerID: "c1"},
			Scope{Source: SourceIntersection, CustomerIDs: []string{"c1"}, InstanceIDs: []string{"i1"}, Mode: Soft}},
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
