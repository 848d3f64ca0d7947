package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

var ctx = context.Background()

// loopback lets deliveries reach the test receivers: they listen on
// 127.0.0.1, which the egress policy refuses unless allowed.
var loopback = egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}

// t0 is the fake clock's start, at microsecond precision (both databases keep it).
var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// received is one request the receiver got.
type received struct {
	Header http.Header
	Body   []byte
}

// receiver is a real HTTP server answering the statuses of answers in
// turn (then 204), recording every request.
type receiver struct {
	mu      sync.Mutex
	answers []int
	got     []received
	srv     *httptest.Server
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	r := &receiver{answers: answers}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: b})
		status := http.StatusNoContent
		if len(r.answers) > 0 {
			status, r.answers = r.answers[0], r.answers[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

type fixture struct {
	st     *store.Store
	sealer *secrets.Sealer
	clock  *clock
	d      *Dispatcher
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := storetest.New(t)
	sl, err := secrets.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"acme", "globex"} {
		if err := st.CreateCustomer(ctx, &platform.Customer{ID: id, Name: id, OrgID: "org-" + id, CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	c := &clock{now: t0}
	f := &fixture{st: st, sealer: sl, clock: c}
	f.d = &Dispatcher{Store: st, Sealer: sl, Now: c.Now, Egress: loopback, MaxAttempts: 4,
		Backoff: func(n int) time.Duration { return time.Duration(1<<(n-1)) * time.Minute }}
	return f
}

func (f *fixture) webhook(t *testing.T, id, customer, url, secret string, events ...string) {
	t.Helper()
	if len(events) == 0 {
		events = []string{AllEvents}
	}
	if err := f.st.CreateWebhook(ctx, &store.Webhook{ID: id, CustomerID: customer, URL: url, Events: events,
		SecretSealed: f.sealer.Seal([]byte(secret), secrets.LabelWebhookSecret(id)), Active: true, CreatedAt: t0, UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
}

// event records an allowed write of action, as the admin service records
// one (D-audit-events); an action followed by a method ("manage_tenant
// POST") is an event recorded before operations were, without one.
func (f *fixture) event(t *testing.T, id, customer, action string, at time.Time) {
	t.Helper()
	e := &store.AuditEvent{ID: id, At: at, Kind: "admin.write", ActorID: "alice", CustomerID: customer, Action: action,
		Operation: "tenant.update", Resource: "tenants/t-1", Decision: "allowed", Reason: "allowed", Status: 200, RequestID: "req-" + id,
		ActorEmail: "alice@acme.example", ActorRole: "owner", TargetType: "tenant", TargetID: "t-1", SourceIP: "203.0.113.7"}
	if strings.Contains(action, " ") {
		e.Operation, e.Status = "", 201
	}
	if err := f.st.AppendAudit(ctx, e); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) run(t *testing.T) Stats {
	t.Helper()
	st, err := f.d.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func (f *fixture) delivery(t *testing.T, webhookID string) store.WebhookDelivery {
	t.Helper()
	ds, err := f.st.WebhookDeliveries(ctx, webhookID, 10)
	if err != nil || len(ds) != 1 {
		t.Fatalf("deliveries of %s = %+v, %v; want one", webhookID, ds, err)
	}
	return ds[0]
}

// TestRetryWithBackoff: a receiver that fails twice gets the same signed
// event three times, the retries scheduled 1 and then 2 minutes after each
// failure, and the delivery ends delivered.
//
// spec: D-events
func TestRetryWithBackoff(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rcv := newReceiver(t, 500, 503)
	f.webhook(t, "wh-1", "acme", rcv.srv.URL+"/hook", "whsec_test")
	f.event(t, "ev-1", "acme", "manage_tenant", t0.Add(time.Second))

	if st := f.run(t); st != (Stats{Queued: 1, Retried: 1}) {
		t.Fatalf("first run = %+v", st)
	}
	d := f.delivery(t, "wh-1")
	if d.Status != store.DeliveryPending || d.Attempts != 1 || d.LastStatusCode != 500 || !d.NextAttemptAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("after the first failure: %+v", d)
	}
	// not due yet: nothing is sent, nothing queued twice
	f.clock.Add(59 * time.Second)
	if st := f.run(t); st != (Stats{}) {
		t.Fatalf("run before the retry is due = %+v", st)
	}
	f.clock.Add(time.Second) // t0 + 1m
	if st := f.run(t); st != (Stats{Retried: 1}) {
		t.Fatalf("second run = %+v", st)
	}
	d = f.delivery(t, "wh-1")
	if d.Attempts != 2 || d.LastStatusCode != 503 || !d.NextAttemptAt.Equal(t0.Add(3*time.Minute)) {
		t.Fatalf("after the second failure: %+v (next attempt want t0+3m)", d)
	}
	f.clock.Add(2 * time.Minute)
	if st := f.run(t); st != (Stats{Delivered: 1}) {
		t.Fatalf("third run = %+v", st)
	}
	d = f.delivery(t, "wh-1")
	if d.Status != store.DeliveryDelivered || d.Attempts != 3 || d.LastStatusCode != 204 || d.DeliveredAt == nil ||
		!d.DeliveredAt.Equal(t0.Add(3*time.Minute)) {
		t.Fatalf("after delivery: %+v", d)
	}
	f.clock.Add(time.Hour)
	if st := f.run(t); st != (Stats{}) {
		t.Fatalf("run after delivery = %+v", st)
	}

	reqs := rcv.requests()
	if len(reqs) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(reqs))
	}
	sent := []time.Time{t0, t0.Add(time.Minute), t0.Add(3 * time.Minute)}
	for i, r := range reqs {
		if err := Verify("whsec_test", r.Header.Get(SignatureHeader), r.Body, sent[i], 5*time.Minute); err != nil {
			t.Errorf("attempt %d: signature: %v (%s)", i+1, err, r.Header.Get(SignatureHeader))
		}
		if err := Verify("wrong-secret", r.Header.Get(SignatureHeader), r.Body, sent[i], 5*time.Minute); err != ErrMismatch {
			t.Errorf("attempt %d: a wrong secret verified: %v", i+1, err)
		}
		if r.Header.Get(IDHeader) != "ev-1" || r.Header.Get(EventHeader) != "admin.write" {
			t.Errorf("attempt %d: headers %v", i+1, r.Header)
		}
	}
	var got Event
	if err := json.Unmarshal(reqs[0].Body, &got); err != nil {
		t.Fatal(err)
	}
	acme := "acme"
	want := Event{ID: "ev-1", Time: t0.Add(time.Second), Kind: "admin.write", Category: "Application Activity", CategoryUID: 6,
		Class: "API Activity", ClassUID: 6003, Activity: "Update", ActivityID: 3, TypeUID: 600303, Outcome: "success",
		Reason: "allowed", Actor: audit.Actor{UserID: "alice", Email: "alice@acme.example", Role: "owner"},
		Target: audit.Target{Type: "tenant", ID: "t-1"}, SourceAddress: "203.0.113.7", RequestID: "req-ev-1", CustomerID: &acme,
		Action: "manage_tenant", Operation: "tenant.update", Resource: "tenants/t-1", Status: 200}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("payload (-want +got):\n%s", diff)
	}
	// a tampered body does not verify
	if err := Verify("whsec_test", reqs[0].Header.Get(SignatureHeader), append(reqs[0].Body, ' '), t0, time.Minute); err != ErrMismatch {
		t.Errorf("tampered body: %v", err)
	}
}

// TestEarlierEventPayload: an event recorded before operations were, its
// action followed by the HTTP method, is still delivered to a webhook
// subscribed to its action, as an admin.write with its action alone.
//
// spec: D-events
func TestEarlierEventPayload(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rcv := newReceiver(t)
	f.webhook(t, "wh-1", "acme", rcv.srv.URL, "s", "manage_tenant")
	f.event(t, "ev-old", "acme", "manage_tenant PATCH", t0)
	if st := f.run(t); st != (Stats{Queued: 1, Delivered: 1}) {
		t.Fatalf("run = %+v", st)
	}
	reqs := rcv.requests()
	if len(reqs) != 1 {
		t.Fatalf("receiver got %d requests", len(reqs))
	}
	var got Event
	if err := json.Unmarshal(reqs[0].Body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Action != "manage_tenant" || got.Kind != "admin.write" || got.Status != 201 || got.Operation != "" {
		t.Errorf("payload %+v: want the action without its method, kind admin.write", got)
	}
}

// TestGiveUp: after MaxAttempts failures the delivery is failed and no
// longer sent.
//
// spec: D-events
func TestGiveUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rcv := newReceiver(t, 500, 500, 500, 500, 500)
	f.webhook(t, "wh-1", "acme", rcv.srv.URL, "s")
	f.event(t, "ev-1", "acme", "manage_billing POST", t0)
	for i := 0; i < 4; i++ {
		f.run(t)
		f.clock.Add(time.Hour)
	}
	d := f.delivery(t, "wh-1")
	if d.Status != store.DeliveryFailed || d.Attempts != 4 || d.LastError == "" {
		t.Fatalf("after 4 failures: %+v", d)
	}
	f.run(t)
	if n := len(rcv.requests()); n != 4 {
		t.Fatalf("receiver got %d requests, want 4", n)
	}
}

// TestRouting: a webhook gets its own customer's allowed events of the
// types it subscribed to, created after it, each once; an inactive
// webhook gets none, and its pending deliveries fail.
//
// spec: D-events
func TestRouting(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	all, billing, other := newReceiver(t), newReceiver(t), newReceiver(t)
	f.webhook(t, "wh-all", "acme", all.srv.URL, "a", AllEvents)
	f.webhook(t, "wh-billing", "acme", billing.srv.URL, "b", "manage_billing")
	f.webhook(t, "wh-globex", "globex", other.srv.URL, "c", AllEvents)
	f.event(t, "before", "acme", "manage_tenant POST", t0.Add(-time.Second)) // before the webhooks existed
	f.event(t, "ev-t", "acme", "manage_tenant PATCH", t0.Add(time.Second))
	f.event(t, "ev-b", "acme", "manage_billing PUT", t0.Add(2*time.Second))
	if err := f.st.AppendAudit(ctx, &store.AuditEvent{ID: "denied", At: t0.Add(3 * time.Second), ActorID: "x", CustomerID: "acme",
		Action: "manage_tenant", Resource: "tenants/t-1", Decision: "denied", Reason: "no", Status: 403}); err != nil {
		t.Fatal(err)
	}
	if st := f.run(t); st.Queued != 3 || st.Delivered != 3 {
		t.Fatalf("run = %+v; want 3 queued and delivered", st)
	}
	ids := func(r *receiver) []string {
		var out []string
		for _, q := range r.requests() {
			out = append(out, q.Header.Get(IDHeader))
		}
		slices.Sort(out) // deliveries go out concurrently, in no set order
		return out
	}
	if diff := cmp.Diff([]string{"ev-b", "ev-t"}, ids(all)); diff != "" {
		t.Errorf("wh-all (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ev-b"}, ids(billing)); diff != "" {
		t.Errorf("wh-billing (-want +got):\n%s", diff)
	}
	if got := ids(other); len(got) != 0 {
		t.Errorf("globex's webhook got acme's events %v", got)
	}
	// a second run within the lookback re-reads the same events and queues nothing
	f.clock.Add(10 * time.Second)
	if st := f.run(t); st != (Stats{}) {
		t.Fatalf("second run = %+v", st)
	}

	// switched off: queued deliveries fail without a request
	if _, err := f.st.UpdateWebhook(ctx, "wh-billing", func(w *store.Webhook) error { w.Active = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.AddWebhookDelivery(ctx, &store.WebhookDelivery{ID: "manual", WebhookID: "wh-billing", EventID: "ev-x",
		EventType: "manage_billing", Payload: "{}", NextAttemptAt: f.clock.Now(), CreatedAt: f.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	if st := f.run(t); st != (Stats{Failed: 1}) {
		t.Fatalf("run with an inactive webhook = %+v", st)
	}
	if n := len(billing.requests()); n != 1 {
		t.Fatalf("inactive webhook got %d requests, want still 1", n)
	}
}

// TestAttackWebhookToLoopback: under the default egress policy a webhook
// URL on loopback gets no request; the attempt is a failure whose record
// says the policy refused it, without the address.
//
// attack: webhook-ssrf-loopback
func TestAttackWebhookToLoopback(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.d.Egress = egress.Policy{}
	rcv := newReceiver(t)
	f.webhook(t, "wh-1", "acme", rcv.srv.URL, "s")
	f.event(t, "ev-1", "acme", "manage_tenant POST", t0)
	if st := f.run(t); st != (Stats{Queued: 1, Retried: 1}) {
		t.Fatalf("run = %+v", st)
	}
	if n := len(rcv.requests()); n != 0 {
		t.Fatalf("a loopback receiver got %d requests", n)
	}
	if d := f.delivery(t, "wh-1"); d.LastError != "refused by the egress policy" || d.LastStatusCode != 0 {
		t.Fatalf("delivery = %+v", d)
	}
}

// TestAttackWebhookRedirect: a receiver answering a redirect to another
// address does not send the delivery there; the attempt fails with the
// 3xx status recorded.
//
// attack: webhook-ssrf-redirect
func TestAttackWebhookRedirect(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	internal := newReceiver(t)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.srv.URL+"/admin", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	f.webhook(t, "wh-1", "acme", redirector.URL, "s")
	f.event(t, "ev-1", "acme", "manage_tenant POST", t0)
	if st := f.run(t); st != (Stats{Queued: 1, Retried: 1}) {
		t.Fatalf("run = %+v", st)
	}
	if n := len(internal.requests()); n != 0 {
		t.Fatalf("the redirect target got %d requests", n)
	}
	d := f.delivery(t, "wh-1")
	if d.Status != store.DeliveryPending || d.LastStatusCode != http.StatusTemporaryRedirect ||
		d.LastError != "redirect not followed (refused by the egress policy)" {
		t.Fatalf("delivery = %+v", d)
	}
}

// TestAttackWebhookAnswerKept: what a receiver answers, on failure or success,
// is not kept in the delivery record the customer's administrators read.
//
// attack: webhook-body-in-record
func TestAttackWebhookAnswerKept(t *testing.T) {
	t.Parallel()
	const secret = "SECRET-ANSWER aws_secret_access_key=abc"
	f := newFixture(t)
	status := http.StatusInternalServerError
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(status)
		fmt.Fprint(w, strings.Repeat(secret, 10000)) // also past the 64 KiB the dispatcher reads
	}))
	t.Cleanup(srv.Close)
	f.webhook(t, "wh-1", "acme", srv.URL, "s")
	f.event(t, "ev-1", "acme", "manage_tenant POST", t0)
	f.run(t)
	d := f.delivery(t, "wh-1")
	if d.LastError != "the receiver answered 500" || d.LastStatusCode != 500 {
		t.Fatalf("after the failure: %+v", d)
	}
	mu.Lock()
	status = http.StatusOK
	mu.Unlock()
	f.clock.Add(time.Hour)
	if st := f.run(t); st != (Stats{Delivered: 1}) {
		t.Fatalf("second run = %+v", st)
	}
	ds, err := f.st.WebhookDeliveries(ctx, "wh-1", 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ds)
	if strings.Contains(string(b), "SECRET") {
		t.Fatalf("a delivery record keeps the answer: %s", b)
	}
}

func TestVerifyRejectsOldAndMalformed(t *testing.T) {
	t.Parallel()
	body := []byte(`{}`)
	h := Sign("s", t0, body)
	if err := Verify("s", h, body, t0.Add(10*time.Minute), 5*time.Minute); err != ErrTooOld {
		t.Errorf("old signature: %v", err)
	}
	for _, bad := range []string{"", "v1=abc", "t=x,v1=abc", "garbage"} {
		if err := Verify("s", bad, body, t0, time.Minute); err != ErrMalformed {
			t.Errorf("Verify(%q) = %v, want ErrMalformed", bad, err)
		}
	}
}

func TestDefaultBackoff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute}
	for i, w := range want {
		if got := DefaultBackoff(i + 1); got != w {
			t.Errorf("DefaultBackoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := DefaultBackoff(40); got != 6*time.Hour {
		t.Errorf("DefaultBackoff(40) = %v, want the 6h cap", got)
	}
}

// TestTick: a paused worker does not run unless a run was requested; each
// run is recorded in system_workers and clears the request.
func TestTick(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rcv := newReceiver(t)
	f.webhook(t, "wh-1", "acme", rcv.srv.URL, "s")
	f.event(t, "ev-1", "acme", "manage_tenant POST", t0)
	if err := f.st.SetWorkerPaused(ctx, WorkerID, true); err != nil {
		t.Fatal(err)
	}
	if ran, err := f.d.Tick(ctx); ran || err != nil {
		t.Fatalf("paused tick ran = %v, %v", ran, err)
	}
	if w, _ := f.st.SystemWorker(ctx, WorkerID); w.LastRunAt != nil || len(rcv.requests()) != 0 {
		t.Fatalf("a paused worker ran: %+v", w)
	}
	if err := f.st.RequestWorkerRun(ctx, WorkerID, t0); err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	if ran, err := f.d.Tick(ctx); !ran || err != nil {
		t.Fatalf("requested tick ran = %v, %v", ran, err)
	}
	w, _ := f.st.SystemWorker(ctx, WorkerID)
	if w.LastRunAt == nil || !w.LastRunAt.Equal(t0.Add(time.Minute)) || w.RunRequestedAt != nil || w.Failures != 0 || len(rcv.requests()) != 1 {
		t.Fatalf("after the requested run: %+v, %d requests", w, len(rcv.requests()))
	}
	if ran, _ := f.d.Tick(ctx); ran {
		t.Fatal("the request was not cleared")
	}
}
