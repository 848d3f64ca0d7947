package authz

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spec: R5.7-roles
func TestParseRole(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Role
		wantErr bool
	}{
		{"PlatformAdmin", "platform_admin", PlatformAdmin, false},
		{"AccountManager", "account_manager", AccountManager, false},
		{"QAAdmin", "qa_admin", QAAdmin, false},
		{"InfraOps", "infra_ops", InfraOps, false},
		{"LegacyOpsEngineer", "ops_engineer", InfraOps, false},
		{"FinanceAdmin", "finance_admin", FinanceAdmin, false},
		{"ComplianceAdmin", "compliance_admin", ComplianceAdmin, false},
		{"Reader", "reader", Reader, false},
		{"Owner", "owner", Owner, false},
		{"Admin", "admin", Admin, false},
		{"Billing", "billing", Billing, false},
		{"Viewer", "viewer", Viewer, false},
		{"Member", "member", Member, false},
		{"ErrUnknown", "superuser", 0, true},
		{"ErrEmpty", "", 0, true},
		{"ErrCase", "Platform_Admin", 0, true},
		{"ErrSpaces", " reader", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRole(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrUnknownRole) {
					t.Fatalf("ParseRole(%q) error = %v, want ErrUnknownRole", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ParseRole(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// spec: R5.7-roles
func TestRoles(t *testing.T) {
	var internal, portal []string
	for _, r := range Roles() {
		if r.Internal() == r.Portal() {
			t.Errorf("%s: Internal() = %v, Portal() = %v; want exactly one", r, r.Internal(), r.Portal())
		}
		if r.Internal() {
			internal = append(internal, r.String())
		} else {
			portal = append(portal, r.String())
		}
		// Every name round-trips, and ops_engineer is never written back.
		back, err := ParseRole(r.String())
		if err != nil || back != r {
			t.Errorf("ParseRole(%q) = %v, %v", r, back, err)
		}
	}
	wantInternal := []string{"platform_admin", "account_manager", "qa_admin", "infra_ops", "finance_admin", "compliance_admin", "reader"}
	wantPortal := []string{"owner", "admin", "billing", "viewer", "member"}
	if diff := cmp.Diff(wantInternal, internal); diff != "" {
		t.Errorf("internal roles (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantPortal, portal); diff != "" {
		t.Errorf("portal roles (-want +got):\n%s", diff)
	}
	var zero Role
	if zero.Internal() || zero.Portal() || zero.valid() {
		t.Error("the zero Role must be no role")
	}
	scoped := map[Role]bool{AccountManager: true, QAAdmin: true}
	for _, r := range Roles() {
		if r.Scoped() != scoped[r] {
			t.Errorf("%s.Scoped() = %v", r, r.Scoped())
		}
		if r.InstanceScoped() != (r == QAAdmin) {
			t.Errorf("%s.InstanceScoped() = %v", r, r.InstanceScoped())
		}
	}
}

func TestRoleText(t *testing.T) {
	b, err := InfraOps.MarshalText()
	if err != nil || string(b) != "infra_ops" {
		t.Fatalf("MarshalText = %q, %v", b, err)
	}
	var r Role
	if err := r.UnmarshalText([]byte("ops_engineer")); err != nil || r != InfraOps {
		t.Fatalf("UnmarshalText(ops_engineer) = %v, %v", r, err)
	}
	if err := r.UnmarshalText([]byte("root")); !errors.Is(err, ErrUnknownRole) {
		t.Fatalf("UnmarshalText(root) error = %v", err)
	}
	if _, err := Role(0).MarshalText(); err == nil {
		t.Fatal("MarshalText of the zero Role must fail")
	}
}
