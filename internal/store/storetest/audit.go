package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/testkit"
)

// testAuditTrail covers the audit trail's rows (migration 0028): what
// AppendAudit fills in from the rows as they are, the filters of the log,
// the stream the export reads (its order, cursor and scope, and on
// PostgreSQL the events of a transaction still running held back with
// every event after them), pruning, and the lifting of locks that ran out.
//
// spec: D-audit-trail, D-audit-stream, D-audit-retention
func testAuditTrail(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "acme", "Acme", "org-acme")
	mustOrg(t, st, "org-staff")
	mustUser(t, st, "alice", "org-acme", "alice@acme.example")
	mustUser(t, st, "bob", "org-acme", "bob@acme.example")
	mustUser(t, st, "root", "org-staff", "root@staff.example")
	if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "alice", Role: "owner", CustomerID: "acme", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	at := func(i int) time.Time { return ts.Add(time.Duration(i) * time.Second) }
	add := func(tx *store.Store, e store.AuditEvent) {
		t.Helper()
		if e.Decision == "" {
			e.Decision = "allowed"
		}
		if err := tx.AppendAudit(ctx, &e); err != nil {
			t.Fatal(err)
		}
	}
	// a sign-in of alice (the customer of her organization sees it), a
	// failure for an address without an account (no customer's), bob's
	// failure, an admin write of root on acme
	add(st, store.AuditEvent{ID: "e1", At: at(1), Kind: "sign_in", ActorID: "alice", CustomerOfUser: "alice",
		TargetType: "user", TargetID: "alice", SourceIP: "203.0.113.1", UserAgent: "ua", Details: `{"amr":"pwd"}`})
	add(st, store.AuditEvent{ID: "e2", At: at(2), Kind: "sign_in", ActorEmail: "nobody@acme.example", Decision: "denied",
		Reason: "unknown_user", Status: 401})
	add(st, store.AuditEvent{ID: "e3", At: at(3), Kind: "sign_in", ActorID: "bob", CustomerOfUser: "bob", Decision: "denied",
		Reason: "invalid_credentials", Status: 401})
	add(st, store.AuditEvent{ID: "e4", At: at(4), Kind: "admin.write", ActorID: "root", ActorRole: "platform_admin",
		CustomerID: "acme", Action: "manage_tenant", Operation: "tenant.update", Resource: "tenants/t1", TargetType: "tenant",
		TargetID: "t1"})

	all := authz.Filter{All: true}
	page := func(q store.AuditQuery) []store.AuditEvent {
		t.Helper()
		es, _, err := st.AuditEvents(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	ids := func(es []store.AuditEvent) []string {
		return keys(es, func(e store.AuditEvent) string { return e.ID })
	}
	got := page(store.AuditQuery{Scope: all})
	if !slices.Equal(ids(got), []string{"e4", "e3", "e2", "e1"}) {
		t.Fatalf("log = %v", ids(got))
	}
	byID := map[string]store.AuditEvent{}
	for _, e := range got {
		byID[e.ID] = e
	}
	e1, e2, e4 := byID["e1"], byID["e2"], byID["e4"]
	if e1.ActorEmail != "alice@acme.example" || e1.ActorOrgID != "org-acme" || e1.ActorRole != "owner" || e1.CustomerID != "acme" ||
		e1.TargetName != "alice@acme.example" || e1.SourceIP != "203.0.113.1" || e1.Details != `{"amr":"pwd"}` {
		t.Errorf("sign-in filled as %+v", e1)
	}
	if byID["e3"].ActorRole != "member" || byID["e3"].CustomerID != "acme" {
		t.Errorf("a customer organization's user without a role: %+v", byID["e3"])
	}
	if e2.CustomerID != "" || e2.ActorEmail != "nobody@acme.example" || e2.ActorID != "" || e2.Details != "{}" {
		t.Errorf("failure for an unknown address: %+v", e2)
	}
	if e4.ActorEmail != "root@staff.example" || e4.ActorRole != "platform_admin" || e4.CustomerID != "acme" || e4.TargetName != "" {
		t.Errorf("admin write: %+v", e4)
	}
	for _, c := range []struct {
		name string
		q    store.AuditQuery
		want []string
	}{
		{"customer", store.AuditQuery{Scope: authz.Filter{CustomerIDs: []string{"acme"}}}, []string{"e4", "e3", "e1"}},
		{"kind", store.AuditQuery{Scope: all, Kind: "sign_in"}, []string{"e3", "e2", "e1"}},
		{"outcome", store.AuditQuery{Scope: all, Outcome: "failure"}, []string{"e3", "e2"}},
		{"actor id", store.AuditQuery{Scope: all, ActorID: "bob"}, []string{"e3"}},
		{"address, any case", store.AuditQuery{Scope: all, ActorEmail: "ACME.EX"}, []string{"e3", "e2", "e1"}},
		{"address wildcard taken literally", store.AuditQuery{Scope: all, ActorEmail: "%"}, nil},
		{"target", store.AuditQuery{Scope: all, TargetID: "t1"}, []string{"e4"}},
		{"time", store.AuditQuery{Scope: all, From: at(2), To: at(4)}, []string{"e3", "e2"}},
	} {
		if got := ids(page(c.q)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}

	// the stream: every event once, in order, from any cursor
	stream := func(f authz.Filter, cursor string, limit int) ([]string, string) {
		t.Helper()
		es, next, err := st.AuditStream(ctx, store.AuditStreamQuery{Scope: f, Cursor: cursor, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		return ids(es), next
	}
	// drain reads the stream of f from cursor until it holds want more
	// events (on PostgreSQL a transaction of another database of the
	// server may hold the stream back a moment), and answers them.
	drain := func(f authz.Filter, cursor string, want int) ([]string, string) {
		t.Helper()
		var seen []string
		testkit.Eventually(t, "the stream reads every event", func() bool {
			for {
				page, next := stream(f, cursor, 2)
				seen, cursor = append(seen, page...), next
				if len(page) < 2 {
					return len(seen) >= want
				}
			}
		})
		return seen, cursor
	}
	first, cursor := drain(all, "", 4)
	if !slices.Equal(first, []string{"e1", "e2", "e3", "e4"}) {
		t.Fatalf("stream = %v", first)
	}
	if again, next := stream(all, cursor, 10); len(again) != 0 || next != cursor {
		t.Fatalf("after the last: %v, cursor %q (want none, %q)", again, next, cursor)
	}
	if got, _ := drain(authz.Filter{CustomerIDs: []string{"acme"}}, "", 3); !slices.Equal(got, []string{"e1", "e3", "e4"}) {
		t.Fatalf("acme's stream = %v", got)
	}
	if got, _ := stream(authz.Filter{}, "", 10); len(got) != 0 {
		t.Fatalf("an empty scope streams %v", got)
	}
	if _, _, err := st.AuditStream(ctx, store.AuditStreamQuery{Scope: all, Cursor: "not a cursor", Limit: 1}); platform.ErrorCode(err) != platform.EINVALID {
		t.Fatalf("malformed cursor: %v", err)
	}

	if st.Dialect() == store.Postgres {
		// An event whose transaction is still running holds back every
		// event committed after it; once it commits, both are read, the
		// earlier first, so a reader that had passed the later one cannot
		// have skipped it.
		inTx, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- st.InTx(ctx, func(tx *store.Store) error {
				if err := tx.AppendAudit(ctx, &store.AuditEvent{ID: "late", At: at(5), Kind: "sign_in", ActorID: "alice",
					Decision: "allowed"}); err != nil {
					return err
				}
				close(inTx)
				<-release
				return nil
			})
		}()
		<-inTx
		add(st, store.AuditEvent{ID: "after", At: at(6), Kind: "sign_in", ActorID: "bob"})
		if got, next := stream(all, cursor, 10); slices.Contains(got, "after") || slices.Contains(got, "late") {
			t.Errorf("read past a transaction still running: %v (cursor %q)", got, next)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		got, next := drain(all, cursor, 2)
		if !slices.Equal(got, []string{"late", "after"}) {
			t.Fatalf("after the commit: %v", got)
		}
		cursor = next
	}

	// pruning: the oldest first, at most the limit, never the newest
	n, err := st.PruneAudit(ctx, at(100), 2)
	if err != nil || n != 2 {
		t.Fatalf("prune = %d, %v; want 2", n, err)
	}
	if _, err := st.PruneAudit(ctx, at(100), 100); err != nil {
		t.Fatal(err)
	}
	left := ids(page(store.AuditQuery{Scope: all}))
	if len(left) != 1 {
		t.Fatalf("after pruning everything: %v, want the newest kept", left)
	}
	add(st, store.AuditEvent{ID: "new", At: at(200), Kind: "sign_in", ActorID: "alice"})
	var fresh []string
	if fresh, cursor = drain(all, cursor, 1); !slices.Equal(fresh, []string{"new"}) {
		t.Fatalf("after pruning, from the old cursor: %v", fresh)
	}

	// restored into a server whose transaction ids are behind the stream
	// (a dump restored elsewhere): once aligned, the next events still
	// come after every event stored, and a reader's cursor finds them
	if st.Dialect() == store.Postgres {
		const ahead = int64(1) << 50
		if _, err := st.Conn().Exec(ctx, `INSERT INTO audit_log (id, at, actor_id, action, resource, decision, reason, status,
			request_id, kind, seq) VALUES ('restored', $1, '', '', '', 'allowed', '', 200, '', 'sign_in', $2)`, at(300), ahead); err != nil {
			t.Fatal(err)
		}
		// until the stream is aligned (at start) the restored events are ahead of it
		if err := st.AlignAuditStream(ctx); err != nil {
			t.Fatal(err)
		}
		if err := st.AlignAuditStream(ctx); err != nil { // again: nothing more to do
			t.Fatal(err)
		}
		add(st, store.AuditEvent{ID: "after-restore", At: at(301), Kind: "sign_in", ActorID: "alice"})
		if got, _ := drain(all, cursor, 2); !slices.Equal(got, []string{"restored", "after-restore"}) {
			t.Fatalf("after the restore, from the reader's cursor: %v", got)
		}
	}

	// locks that ran out: listed, lifted once
	until := ts.Add(time.Minute)
	if _, err := st.RecordLoginFailure(ctx, "bob", 1, until); err != nil {
		t.Fatal(err)
	}
	if us, err := st.ExpiredLocks(ctx, until.Add(-time.Second), 10); err != nil || len(us) != 0 {
		t.Fatalf("locks expired before their time: %v %v", us, err)
	}
	us, err := st.ExpiredLocks(ctx, until, 10)
	if err != nil || len(us) != 1 || us[0].ID != "bob" {
		t.Fatalf("expired locks = %v %v", us, err)
	}
	if ok, err := st.LiftExpiredLock(ctx, "bob", until); err != nil || !ok {
		t.Fatalf("lift = %v %v", ok, err)
	}
	if ok, err := st.LiftExpiredLock(ctx, "bob", until); err != nil || ok {
		t.Fatalf("lifted twice: %v %v", ok, err)
	}
	if u, err := st.User(ctx, "bob"); err != nil || !u.LockedUntil.IsZero() || u.FailedLogins != 0 {
		t.Fatalf("after lifting: %+v %v", u, err)
	}
}
