package adminhttp

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// BenchmarkListTenantsAccountManager lists 1,000 tenants for an account
// manager granted 200 customers (5 tenants each) among 400 customers with
// 2,000 tenants: one page of 1,000 through the real HTTP route, the scope
// applied in SQL. Numbers: docs/benchmarks.md.
func BenchmarkListTenantsAccountManager(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	am := e.mustUser(authz.AccountManager, "")
	now := time.Now()
	err := e.st.InTx(ctx, func(tx *store.Store) error {
		for i := 0; i < 400; i++ {
			c := e.mustCustomerTx(tx, i)
			if i%2 == 0 {
				if err := tx.PutGrant(ctx, false, &store.Grant{GranteeID: am, TargetID: c, GrantedAt: now}); err != nil {
					return err
				}
			}
			for j := 0; j < 5; j++ {
				if err := tx.CreateTenant(ctx, &store.Tenant{ID: fmt.Sprintf("t-%03d-%d", i, j), CustomerID: c,
					Name: fmt.Sprintf("Tenant %03d-%d", i, j), CreatedAt: now}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := e.do(am, "GET", "/tenants?limit=1000", nil)
		if r.Status != 200 {
			b.Fatalf("list = %d %s", r.Status, r.Body)
		}
		if i == 0 {
			if n := len(r.json(b)["items"].([]any)); n != 1000 {
				b.Fatalf("listed %d tenants, want 1000", n)
			}
		}
	}
}

func (e *env) mustCustomerTx(tx *store.Store, i int) string {
	id, org := fmt.Sprintf("bc-%03d", i), fmt.Sprintf("bo-%03d", i)
	now := time.Now()
	ctx := context.Background()
	if err := tx.CreateOrganization(ctx, &platform.Organization{ID: org, Name: org, CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	if err := tx.CreateCustomer(ctx, &platform.Customer{ID: id, Name: id, OrgID: org, CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}
