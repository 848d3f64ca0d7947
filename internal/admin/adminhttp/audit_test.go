package adminhttp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/testkit"
	"github.com/platform/platform/internal/webhook"
)

// exportPage is one answer of GET /audit-log/export.
type exportPage struct {
	status int
	events []audit.Event
	next   string
	body   []byte
}

// export asks the export for the events after cursor, at most limit (0:
// the default), as caller.
func (e *env) export(caller, after string, limit int) exportPage {
	e.t.Helper()
	path := "/audit-log/export?after=" + after
	if limit > 0 {
		path += fmt.Sprintf("&limit=%d", limit)
	}
	r := e.do(caller, http.MethodGet, path, nil)
	p := exportPage{status: r.Status, next: r.Header.Get(NextCursorHeader), body: r.Body}
	if r.Status != http.StatusOK {
		return p
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		e.t.Fatalf("export answered %s", ct)
	}
	sc := bufio.NewScanner(bytes.NewReader(r.Body))
	for sc.Scan() {
		var ev audit.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			e.t.Fatalf("a line of the export is no event: %v: %s", err, sc.Bytes())
		}
		p.events = append(p.events, ev)
	}
	return p
}

// follow reads the export as caller from after, page by page (limit a
// page), until an answer is shorter than its limit; it answers the events
// and the cursor to resume from.
func (e *env) follow(caller, after string, limit int) ([]audit.Event, string) {
	e.t.Helper()
	var out []audit.Event
	for {
		p := e.export(caller, after, limit)
		if p.status != http.StatusOK {
			e.t.Fatalf("export = %d %s", p.status, p.body)
		}
		out, after = append(out, p.events...), p.next
		if len(p.events) < limit {
			return out, after
		}
	}
}

// waitStream waits until the export reads, as caller, every one of ids:
// on PostgreSQL a transaction of another database of the server may hold
// the stream back a moment (D-audit-stream).
func (e *env) waitStream(caller string, ids ...string) {
	e.t.Helper()
	testkit.Eventually(e.t, "the export reads the events written", func() bool {
		evs, _ := e.follow(caller, "", 1000)
		got := eventIDs(evs)
		for _, id := range ids {
			if !slices.Contains(got, id) {
				return false
			}
		}
		return true
	})
}

// record stores a security event as the identity provider does, about
// userID (its customer sees it; "" for an address without an account).
func (e *env) record(kind audit.Kind, userID, email string, failed bool) string {
	e.t.Helper()
	entry := audit.Entry{Kind: kind, ActorID: userID, ActorEmail: email, CustomerOf: userID, Failed: failed,
		Target: audit.Target{Type: "user", ID: userID}}
	if failed {
		entry.Reason = "invalid_credentials"
	}
	row := audit.Row(context.Background(), time.Now(), entry)
	if err := e.st.AppendAudit(context.Background(), row); err != nil {
		e.t.Fatal(err)
	}
	return row.ID
}

func eventIDs(evs []audit.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.ID
	}
	return out
}

// The export answers NDJSON, one event of the audit trail's schema a line,
// at most the limit asked for (1000 by default and at most), and the
// cursor to resume from in a header; resuming from it reads what came
// after, and nothing when nothing did. A malformed cursor or limit is 400.
//
// spec: D-audit-stream
func TestAuditExport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	cust := e.mustCustomer()
	alice := e.mustUser(authz.Owner, cust)
	var want []string
	for range 3 {
		want = append(want, e.record(audit.SignIn, alice, "", false))
	}
	e.waitStream(pa, want...)
	p := e.export(pa, "", 2)
	if p.status != 200 || !slices.Equal(eventIDs(p.events), want[:2]) || p.next == "" {
		t.Fatalf("first page = %d %v next %q", p.status, eventIDs(p.events), p.next)
	}
	ev := p.events[0]
	if ev.Kind != "sign_in" || ev.Class != "Authentication" || ev.Actor.Email != alice+"@example.com" || ev.Actor.Role != "owner" ||
		ev.CustomerID == nil || *ev.CustomerID != cust || ev.Outcome != "success" {
		t.Errorf("an exported event = %+v", ev)
	}
	p2 := e.export(pa, p.next, 2)
	if !slices.Equal(eventIDs(p2.events), want[2:]) {
		t.Fatalf("second page = %v", eventIDs(p2.events))
	}
	p3 := e.export(pa, p2.next, 2)
	if p3.status != 200 || len(p3.events) != 0 || p3.next != p2.next || len(p3.body) != 0 {
		t.Fatalf("after the last = %d %v, cursor %q (want %q)", p3.status, eventIDs(p3.events), p3.next, p2.next)
	}
	if all := e.export(pa, "", 0); len(all.events) != 3 {
		t.Fatalf("the default limit answered %d of 3", len(all.events))
	}
	for _, q := range []string{"after=not-a-cursor", "limit=0", "limit=1001", "limit=-1", "limit=x"} {
		if r := e.do(pa, http.MethodGet, "/audit-log/export?"+q, nil); r.Status != http.StatusBadRequest {
			t.Errorf("export?%s = %d, want 400", q, r.Status)
		} else {
			checkErrorObject(t, r, "/audit-log/export")
		}
	}
}

// A reader following the export while events are written at once (the
// administration writes of several clients through the API, and security
// events each in a transaction with other work) reads every event once:
// none lost, none twice. On PostgreSQL an event whose transaction commits
// after a later one's is read too: the export does not pass it while its
// transaction runs.
//
// spec: D-audit-stream
func TestAuditExportResumesWhileWritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	cust := e.mustCustomer()
	owner := e.mustUser(authz.Owner, cust)
	var seen []audit.Event
	cursor := ""
	read := func() {
		evs, next := e.follow(pa, cursor, 5)
		seen, cursor = append(seen, evs...), next
	}

	if e.st.Dialect() == store.Postgres {
		inTx, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- e.st.InTx(context.Background(), func(tx *store.Store) error {
				row := audit.Row(context.Background(), time.Now(), audit.Entry{Kind: audit.SignIn, ActorID: owner, CustomerOf: owner})
				row.ID = "late"
				if err := tx.AppendAudit(context.Background(), row); err != nil {
					return err
				}
				close(inTx)
				<-release
				return nil
			})
		}()
		<-inTx
		e.record(audit.SignIn, owner, "", false) // committed first, written second
		read()
		if slices.Contains(eventIDs(seen), "late") {
			t.Fatal("read an event of a transaction still running")
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}

	tenants := make([]string, 4)
	for i := range tenants {
		tenants[i] = e.mustTenant(cust, "")
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() { // the SIEM: follows the export while everything below is written
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
				read()
			}
		}
	}()
	var writers sync.WaitGroup
	for i, tn := range tenants {
		writers.Add(2)
		go func() {
			defer writers.Done()
			for j := range 10 {
				if r := e.do(owner, http.MethodPatch, "/tenants/"+tn, map[string]any{"name": fmt.Sprintf("T%d-%d", i, j)}); r.Status != 200 {
					t.Errorf("rename = %d %s", r.Status, r.Body)
				}
			}
		}()
		go func() {
			defer writers.Done()
			for range 10 {
				err := e.st.InTx(context.Background(), func(tx *store.Store) error {
					if _, err := tx.Tenant(context.Background(), tn); err != nil { // work before the event, in its transaction
						return err
					}
					return audit.Record(context.Background(), tx, time.Now(), audit.Entry{Kind: audit.SignIn, ActorID: owner, CustomerOf: owner})
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	writers.Wait()
	close(stop)
	readers.Wait()

	written, _, err := e.st.AuditEvents(context.Background(), store.AuditQuery{Scope: authz.Filter{All: true}, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) < 80 {
		t.Fatalf("%d events written, want at least 80", len(written))
	}
	// the last events may still be held back by a transaction of another
	// database of the server: read until the reader has caught up
	testkit.Eventually(t, "the export reads every event written", func() bool {
		read()
		return len(seen) >= len(written)
	})
	count := map[string]int{}
	for _, ev := range seen {
		count[ev.ID]++
	}
	for _, w := range written {
		if count[w.ID] != 1 {
			t.Errorf("event %s (%s at %s) read %d times", w.ID, w.Kind, w.At.Format(time.RFC3339Nano), count[w.ID])
		}
	}
	if len(seen) != len(written) {
		t.Errorf("read %d events, %d written", len(seen), len(written))
	}
}

// TestAuditScopeMatrix extends the capability matrix to what the audit log
// and its export answer, for every role in every scope situation: the
// route's status from expected.csv (view_audit_log), and which events:
// every event, platform-wide ones too, for an unscoped internal role;
// only the events of the customers in scope for every other (its grants,
// its focus, its own customer), never a platform-wide one.
//
// spec: R5.7-matrix, R5.7-strict, R5.7-soft, D-audit-stream
func TestAuditScopeMatrix(t *testing.T) {
	t.Parallel()
	exp := loadExpectations(t)
	for _, role := range authz.Roles() {
		t.Run(role.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			for _, scope := range scopesOf(role) {
				w := newWorld(e, role, scope)
				homeUser, otherUser := e.mustUser(authz.Viewer, w.Home), e.mustUser(authz.Viewer, w.Other)
				home := e.record(audit.SignIn, homeUser, "", false)
				other := e.record(audit.SignIn, otherUser, "", true)
				nobody := e.record(audit.SignIn, "", "nobody-"+scope+"@example.com", true)
				cell := exp[[3]string{role.String(), scopesOf(role)[0], authz.ViewAuditLog.String()}]
				log := e.do(w.Caller, http.MethodGet, "/audit-log?limit=500", nil)
				x := e.export(w.Caller, "", 1000)
				if cell.read != "200" {
					if fmt.Sprint(log.Status) != cell.read || fmt.Sprint(x.status) != cell.read {
						t.Errorf("%s (%s): log %d, export %d, want %s", role, scope, log.Status, x.status, cell.read)
					}
					continue
				}
				var page admin.Page[audit.Event]
				decodeInto(t, log, &page)
				unscoped := !role.Scoped() && !role.Portal() && scope == scopeAny
				testkit.Eventually(t, "the export reads the events just written", func() bool {
					x = e.export(w.Caller, "", 1000)
					ids := eventIDs(x.events)
					return slices.Contains(ids, home) && (!unscoped || slices.Contains(ids, nobody))
				})
				for name, evs := range map[string][]audit.Event{"log": page.Items, "export": x.events} {
					ids := eventIDs(evs)
					if !slices.Contains(ids, home) {
						t.Errorf("%s (%s) %s: the event of its own customer is missing", role, scope, name)
					}
					if unscoped {
						if !slices.Contains(ids, other) || !slices.Contains(ids, nobody) {
							t.Errorf("%s (%s) %s: an unscoped role misses another customer's or a platform-wide event", role, scope, name)
						}
						continue
					}
					for _, ev := range evs {
						if ev.CustomerID == nil || *ev.CustomerID != w.Home {
							t.Errorf("%s (%s) %s: reads %s of customer %v, outside its scope (%s)", role, scope, name, ev.ID,
								ev.CustomerID, w.Home)
						}
					}
				}
			}
		})
	}
}

// A customer reading another customer's events through the export: from
// the beginning, from a cursor another reader was given just before the
// other customer's events, with the log's filters naming the other
// customer's user and objects. Nothing of the other customer shows, nor
// any platform-wide event (a failed sign-in for an address without an
// account); an account manager granted one customer reads that one's.
//
// attack: audit-export-cross-customer
func TestAttackAuditExportCrossCustomer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pa := e.mustUser(authz.PlatformAdmin, "")
	a, b := e.mustCustomer(), e.mustCustomer()
	ownerA, adminA := e.mustUser(authz.Owner, a), e.mustUser(authz.Admin, a)
	adminB, userB := e.mustUser(authz.Admin, b), e.mustUser(authz.Viewer, b)
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, a)
	tenantB := e.mustTenant(b, "")

	mine := e.record(audit.SignIn, adminA, "", false)
	e.waitStream(pa, mine)
	before := e.export(pa, "", 1000) // where the victim's events begin
	e.record(audit.SignIn, userB, "", true)
	e.record(audit.AccountLocked, userB, "", false)
	if r := e.do(adminB, http.MethodPatch, "/tenants/"+tenantB, map[string]any{"name": "B's secret project"}); r.Status != 200 {
		t.Fatalf("B's write = %d", r.Status)
	}
	e.record(audit.SignIn, "", "ceo@b.example", true)
	var inside []string // the cursor after each of them, as the platform's reader is given it
	testkit.Eventually(t, "the platform's export reads the four events", func() bool {
		inside = inside[:0]
		for c := before.next; ; {
			p := e.export(pa, c, 1)
			if len(p.events) == 0 {
				return len(inside) == 4
			}
			c = p.next
			inside = append(inside, c)
		}
	})

	leaks := func(who, how string, evs []audit.Event) {
		t.Helper()
		for _, ev := range evs {
			if ev.CustomerID == nil || *ev.CustomerID != a || strings.Contains(ev.Target.Name, "secret") ||
				ev.Actor.UserID == userB || ev.Actor.UserID == adminB || ev.Actor.Email == "ceo@b.example" {
				t.Errorf("%s reads through %s: %+v", who, how, ev)
			}
		}
	}
	for _, who := range []string{ownerA, am} {
		all, _ := e.follow(who, "", 1000)
		leaks(who, "the export", all)
		if !slices.Contains(eventIDs(all), mine) {
			t.Errorf("%s misses its own customer's event", who)
		}
		// the cursor the platform's reader had before B's events
		after, _ := e.follow(who, before.next, 1000)
		leaks(who, "another reader's cursor", after)
		// the cursors the platform's reader was given inside B's events
		for _, c := range inside {
			p := e.export(who, c, 1000)
			leaks(who, "a cursor inside B's events", p.events)
		}
		for _, q := range []string{"actorId=" + userB, "targetId=" + tenantB, "kind=sign_in&outcome=failure", "actor=ceo@b.example",
			"kind=account.locked", "kind=admin.write"} {
			r := e.do(who, http.MethodGet, "/audit-log?"+q, nil)
			var page admin.Page[audit.Event]
			decodeInto(t, r, &page)
			leaks(who, "the log ?"+q, page.Items)
		}
	}
}

// A customer's webhook carrying another customer's events: customer A's
// webhook, subscribed to every event, and customer B's, subscribed to
// sign-ins only, while both customers' users sign in and fail, B writes,
// and an address without an account fails: A's receiver gets A's events
// only, B's receives B's sign-ins only (what it subscribed to), no one the
// platform-wide failure.
//
// attack: audit-webhook-cross-customer
func TestAttackAuditWebhookCrossCustomer(t *testing.T) {
	t.Parallel()
	sl, err := secrets.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, admin.WithSealer(sl), admin.WithEgress(loopback))
	a, b := e.mustCustomer(), e.mustCustomer()
	ownerA, userA := e.mustUser(authz.Owner, a), e.mustUser(authz.Viewer, a)
	ownerB, userB := e.mustUser(authz.Owner, b), e.mustUser(authz.Viewer, b)
	tenantB := e.mustTenant(b, "")
	type delivery struct {
		ev  audit.Event
		sig string
		raw []byte
	}
	var mu sync.Mutex
	got := map[string][]delivery{}
	receiver := func(name string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var ev audit.Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				t.Errorf("%s received no event: %s", name, raw)
			}
			mu.Lock()
			got[name] = append(got[name], delivery{ev, r.Header.Get(webhook.SignatureHeader), raw})
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	hook := func(owner, cust, url string, events []string) string {
		var created struct{ Secret string }
		r := e.do(owner, http.MethodPost, "/customers/"+cust+"/webhooks", map[string]any{"url": url, "events": events})
		if r.Status != http.StatusCreated {
			t.Fatalf("webhook = %d %s", r.Status, r.Body)
		}
		decodeInto(t, r, &created)
		return created.Secret
	}
	secretA := hook(ownerA, a, receiver("A"), []string{"*"})
	hook(ownerB, b, receiver("B"), []string{"sign_in"})
	mineA := []string{e.record(audit.SignIn, userA, "", false), e.record(audit.SignIn, userA, "", true)}
	theirsB := []string{e.record(audit.SignIn, userB, "", false), e.record(audit.SignIn, userB, "", true)}
	e.record(audit.AccountLocked, userB, "", false) // B subscribed to sign-ins only
	e.record(audit.SignIn, "", "nobody@a.example", true)
	if r := e.do(ownerB, http.MethodPatch, "/tenants/"+tenantB, map[string]any{"name": "Renamed"}); r.Status != 200 {
		t.Fatalf("B's write = %d", r.Status)
	}
	d := &webhook.Dispatcher{Store: e.st, Sealer: sl, Egress: loopback}
	if _, err := d.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	ids := func(ds []delivery) []string {
		var out []string
		for _, dl := range ds {
			if dl.ev.Kind == "sign_in" {
				out = append(out, dl.ev.ID)
			}
		}
		slices.Sort(out)
		return out
	}
	slices.Sort(mineA)
	slices.Sort(theirsB)
	if !slices.Equal(ids(got["A"]), mineA) {
		t.Errorf("A's webhook got sign-ins %v, want its own %v", ids(got["A"]), mineA)
	}
	for _, dl := range got["A"] {
		if dl.ev.CustomerID == nil || *dl.ev.CustomerID != a {
			t.Errorf("A's webhook got %+v", dl.ev)
		}
		if err := webhook.Verify(secretA, dl.sig, dl.raw, time.Now(), time.Minute); err != nil {
			t.Errorf("A's delivery does not verify with A's secret: %v", err)
		}
	}
	if !slices.Equal(ids(got["B"]), theirsB) || len(got["B"]) != len(theirsB) {
		t.Errorf("B's webhook (sign-ins only) got %d deliveries, sign-ins %v, want %v", len(got["B"]), ids(got["B"]), theirsB)
	}
}
