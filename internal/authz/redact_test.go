package authz

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spec: R5.7-redact
func TestRedactBilled(t *testing.T) {
	c := MustSpecCatalog(t)
	amount := 12.5
	var got, want []string
	for _, r := range Roles() {
		p := inScope(r)
		see := c.CanSeeBilledAmounts(&p)
		v := c.RedactBilled(&p, &amount)
		if see != (v != nil) {
			t.Errorf("%s: CanSeeBilledAmounts = %v but RedactBilled = %v", r, see, v)
		}
		if v != nil && *v != amount {
			t.Errorf("%s: RedactBilled changed the amount to %v", r, *v)
		}
		if see {
			got = append(got, r.String())
		}
		if c.Access(r, ViewBilledUnits) != AccessNone {
			want = append(want, r.String())
		}
	}
	// The roles of the matrix row "View usage with billed amounts", full or read.
	if diff := cmp.Diff([]string{"platform_admin", "account_manager", "finance_admin", "compliance_admin", "reader", "owner", "admin", "billing"}, got); diff != "" {
		t.Errorf("roles that see billed amounts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CanSeeBilledAmounts disagrees with view_billed_units (-want +got):\n%s", diff)
	}
	if c.CanSeeBilledAmounts(nil) || c.RedactBilled(nil, &amount) != nil {
		t.Error("no principal must see no billed amount")
	}
	// A role without view_billed_units that still sees usage units.
	viewer := Principal{Role: Viewer, CustomerID: "c1"}
	if c.RedactBilled(&viewer, &amount) != nil {
		t.Error("viewer sees billed amounts")
	}
	if !decide(c, viewer, ViewUsageUnits, Resource{CustomerID: "c1"}, false).Allowed {
		t.Error("viewer must see usage units")
	}
}

func TestRedactGeneric(t *testing.T) {
	c := MustSpecCatalog(t)
	s := "postgres://…"
	if got := Redact(c, &Principal{Role: InfraOps}, ResolveDatabaseURI, &s); got != &s {
		t.Errorf("infra_ops: %v", got)
	}
	if got := Redact(c, &Principal{Role: FinanceAdmin}, ResolveDatabaseURI, &s); got != nil {
		t.Errorf("finance_admin: %v", got)
	}
}
