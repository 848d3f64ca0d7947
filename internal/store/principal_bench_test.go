package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// principalBefore is the statement Principal ran before it checked the
// credentials (users.suspended_at and the token grant, D-credentials-follow)
// and when it still read the notification subscriptions: the baseline the
// statement is measured against, in the same process, interleaved.
const principalBefore = `
	SELECT 0, role, COALESCE(customer_id, '') FROM console_users WHERE user_id = $1
	UNION ALL SELECT 1, customer_id, '' FROM customer_grants WHERE grantee_type = 'user' AND grantee_id = $1
	UNION ALL SELECT 2, instance_id, '' FROM instance_grants WHERE grantee_type = 'user' AND grantee_id = $1
	UNION ALL SELECT 3, customer_id, '' FROM focus_modes WHERE user_id = $1 AND expires_at > $2
	UNION ALL SELECT 4, event_type, '' FROM notification_subscriptions WHERE user_id = $1
	ORDER BY 1, 2`

// BenchmarkPrincipal measures the one statement that loads the caller of
// every API request (docs/benchmarks.md), for an account manager with 20
// customer grants in focus mode and for a customer's owner: Before is the
// statement without the credential checks, After is store.Principal.
//
//	go test ./internal/store -run '^$' -bench Principal -cpu 1 -count 10                        # SQLite
//	TEST_DATABASE_URL=… go test ./internal/store -run '^$' -bench Principal -cpu 1 -count 10    # PostgreSQL
func BenchmarkPrincipal(b *testing.B) {
	ctx := context.Background()
	st := storetest.New(b)
	now := time.Now().UTC().Truncate(time.Microsecond)
	must := func(err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-admin", Name: "Platform", CreatedAt: now}))
	for i := range 200 {
		id := fmt.Sprintf("cust-%03d", i)
		must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-" + id, Name: id, CreatedAt: now}))
		must(st.CreateCustomer(ctx, &platform.Customer{ID: id, Name: id, OrgID: "org-" + id, CreatedAt: now}))
		u := &platform.User{ID: "owner-" + id, OrgID: "org-" + id, Email: "owner@" + id + ".example", Name: "Owner",
			CreatedAt: now, UpdatedAt: now}
		must(st.CreateUser(ctx, u))
		must(st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: u.ID, Role: "owner", CustomerID: id, CreatedAt: now}))
	}
	am := &platform.User{ID: "am", OrgID: "org-admin", Email: "am@platform.example", Name: "AM", CreatedAt: now, UpdatedAt: now}
	must(st.CreateUser(ctx, am))
	must(st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: am.ID, Role: "account_manager", CreatedAt: now}))
	for i := 0; i < 200; i += 10 {
		must(st.PutGrant(ctx, false, &store.Grant{GranteeID: am.ID, TargetID: fmt.Sprintf("cust-%03d", i), GrantedAt: now}))
	}
	must(st.SetFocus(ctx, am.ID, "cust-010", now, now.Add(time.Hour)))
	must(st.Subscribe(ctx, am.ID, "worker.failed", now))

	for _, tc := range []struct{ name, user string }{{"AccountManager20Grants", am.ID}, {"Owner", "owner-cust-042"}} {
		grant := storetest.MustGrant(b, st, tc.user)
		b.Run(tc.name+"/Before", func(b *testing.B) {
			for b.Loop() {
				if err := principalBaseline(ctx, st, tc.user, now); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/After", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := st.Principal(ctx, tc.user, grant, now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// principalBaseline runs principalBefore and reads its rows as Principal reads its own.
func principalBaseline(ctx context.Context, st *store.Store, userID string, now time.Time) error {
	rows, err := st.Conn().Query(ctx, principalBefore, userID, now.UTC())
	if err != nil {
		return err
	}
	defer rows.Close()
	found := false
	var grants []string
	for rows.Next() {
		var kind int
		var v, extra string
		if err := rows.Scan(&kind, &v, &extra); err != nil {
			return err
		}
		found = found || kind == 0
		grants = append(grants, v)
	}
	if !found || len(grants) == 0 {
		return fmt.Errorf("no principal for %s", userID)
	}
	return rows.Err()
}
