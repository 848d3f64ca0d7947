package mail_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

var ctx = context.Background()

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

type fixture struct {
	st     *store.Store
	sealer *secrets.Sealer
	clk    *clock
	outbox *mail.Outbox
	smtp   *mailtest.Server
	worker *mail.Worker
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := storetest.New(t)
	sl, err := secrets.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	srv := mailtest.Start(t)
	sender := srv.Sender()
	return &fixture{st: st, sealer: sl, clk: clk, outbox: &mail.Outbox{Sealer: sl, Now: clk.Now}, smtp: srv,
		worker: &mail.Worker{Store: st, Sealer: sl, Sender: sender, From: "Platform <no-reply@platform.test>", Now: clk.Now}}
}

func (f *fixture) queue(t *testing.T, m mail.Message) {
	t.Helper()
	if err := f.st.InTx(ctx, func(tx *store.Store) error { return f.outbox.Queue(ctx, tx, m) }); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) log(t *testing.T) []store.Email {
	t.Helper()
	es, _, err := f.st.EmailLog(ctx, store.EmailQuery{Scope: authz.Filter{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

var invitation = mail.Message{Kind: mail.KindInvitation, To: "ada@example.com", Org: "Acme Corp", Name: "Ada",
	Link: "https://idp.example.com/ui/invitation?token=abc_DEF-123"}

// A queued message goes out over STARTTLS with authentication, with its
// text and HTML parts naming the organization and carrying the link; the
// log says sent and the body is no longer kept.
func TestWorkerSendsOverSMTP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.queue(t, invitation)
	st, err := f.worker.RunOnce(ctx)
	if err != nil || st.Sent != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	got := f.smtp.To("ada@example.com")
	if len(got) != 1 {
		t.Fatalf("received %d messages", len(got))
	}
	m := got[0]
	if m.Subject != "You are invited to Acme Corp" || m.From != "no-reply@platform.test" {
		t.Errorf("subject %q from %q", m.Subject, m.From)
	}
	if m.Link() != invitation.Link || !strings.Contains(m.Text, "Acme Corp") || !strings.Contains(m.Text, "7 days") {
		t.Errorf("text: %q", m.Text)
	}
	if !strings.Contains(m.HTML, `href="`+invitation.Link+`"`) || !strings.Contains(m.HTML, "Acme Corp") {
		t.Errorf("html: %q", m.HTML)
	}
	es := f.log(t)
	if len(es) != 1 || es[0].Status != store.EmailSent {
		t.Fatalf("log: %+v", es)
	}
	e, err := f.st.OutboxEmail(ctx, es[0].ID)
	if err != nil || e.BodySealed != nil || e.SentAt == nil || e.Attempts != 1 {
		t.Fatalf("outbox row after sending: %+v %v", e, err)
	}
	// Sent once: another run sends nothing.
	if st, err := f.worker.RunOnce(ctx); err != nil || st != (mail.Stats{}) {
		t.Fatalf("second run: %+v %v", st, err)
	}
}

// The mail server is down: the message stays queued with the reason and is
// retried after the backoff; once the server is up again it goes out, once.
func TestWorkerRetriesWhenServerIsDownThenUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.smtp.Stop()
	f.queue(t, invitation)
	st, err := f.worker.RunOnce(ctx)
	if err != nil || st.Retried != 1 {
		t.Fatalf("run while down: %+v %v", st, err)
	}
	es := f.log(t)
	if es[0].Status != store.EmailQueued || es[0].LastError != "the mail server refused the connection" {
		t.Fatalf("log while down: %+v", es[0])
	}
	f.smtp.Restart()
	// Not due yet: the backoff holds the message back.
	if st, err := f.worker.RunOnce(ctx); err != nil || st != (mail.Stats{}) {
		t.Fatalf("run before the backoff: %+v %v", st, err)
	}
	f.clk.Add(31 * time.Second)
	if st, err := f.worker.RunOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("run after the backoff: %+v %v", st, err)
	}
	if n := len(f.smtp.To("ada@example.com")); n != 1 {
		t.Fatalf("received %d", n)
	}
	e, _ := f.st.OutboxEmail(ctx, es[0].ID)
	if e.Status != store.EmailSent || e.Attempts != 2 || e.LastError != "" {
		t.Fatalf("after recovery: %+v", e)
	}
}

// A message that keeps failing is given up as failed after MaxAttempts,
// with its reason in the log.
func TestWorkerGivesUpAfterMaxAttempts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.worker.MaxAttempts = 2
	f.smtp.Stop()
	f.queue(t, invitation)
	for range 2 {
		if _, err := f.worker.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		f.clk.Add(time.Hour)
	}
	es := f.log(t)
	if es[0].Status != store.EmailFailed || es[0].LastError == "" {
		t.Fatalf("log: %+v", es[0])
	}
}

// Wrong credentials at the server: retried (the operator may fix them),
// and the reason says what the server answered.
func TestWorkerBadCredentials(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sender, err := mail.ParseSMTPURL("smtp://mailer:wrong@" + f.smtp.Addr())
	if err != nil {
		t.Fatal(err)
	}
	sender.TLS = f.smtp.ClientTLS()
	f.worker.Sender = sender
	f.queue(t, invitation)
	if st, err := f.worker.RunOnce(ctx); err != nil || st.Retried != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	if n := len(f.smtp.Messages()); n != 0 {
		t.Fatalf("accepted %d messages", n)
	}
	if es := f.log(t); es[0].LastError == "" || strings.Contains(es[0].LastError, "wrong") {
		t.Fatalf("reason: %q", es[0].LastError)
	}
}

// Without a mail server, messages are marked "not configured" and keep
// their body (the development mailbox shows them).
func TestWorkerNotConfigured(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.worker.Sender = nil
	f.queue(t, invitation)
	if st, err := f.worker.RunOnce(ctx); err != nil || st.NotConfigured != 1 {
		t.Fatalf("run: %+v %v", st, err)
	}
	es := f.log(t)
	if es[0].Status != store.EmailNotConfigured {
		t.Fatalf("log: %+v", es[0])
	}
	box, err := f.st.Mailbox(ctx, 10)
	if err != nil || len(box) != 1 {
		t.Fatalf("mailbox: %v %v", box, err)
	}
	b, err := mail.Open(f.sealer, &box[0])
	if err != nil || !strings.Contains(b.Text, invitation.Link) {
		t.Fatalf("body: %+v %v", b, err)
	}
}

// A message is written with the change that causes it: when the
// transaction fails, neither is kept.
func TestQueueIsPartOfTheTransaction(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	boom := errors.New("the change failed")
	err := f.st.InTx(ctx, func(tx *store.Store) error {
		if err := f.outbox.Queue(ctx, tx, invitation); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if es := f.log(t); len(es) != 0 {
		t.Fatalf("log: %+v", es)
	}
}

// Two workers (two replicas) running at once send each message once.
func TestWorkersAcrossReplicasSendOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 6 {
		m := invitation
		m.To = "user" + string(rune('a'+i)) + "@example.com"
		f.queue(t, m)
	}
	other := *f.worker
	var wg sync.WaitGroup
	for _, w := range []*mail.Worker{f.worker, &other} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = w.RunOnce(ctx) }()
	}
	wg.Wait()
	if n := len(f.smtp.Messages()); n != 6 {
		t.Fatalf("received %d messages, want 6", n)
	}
}

func TestParseSMTPURL(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"smtp://u:p@mail.example.com:587", "smtps://u:p%40x@mail.example.com", "smtp://mail.example.com",
		"smtp://127.0.0.1:1025?tls=none", "smtp://localhost:1025?tls=none"} {
		if _, err := mail.ParseSMTPURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "mail.example.com:587", "http://mail.example.com", "smtp://mail.example.com:0",
		"smtp://mail.example.com?tls=none", "smtps://127.0.0.1?tls=none", "smtp://mail.example.com/path", "smtp://x?foo=1"} {
		if _, err := mail.ParseSMTPURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	s, _ := mail.ParseSMTPURL("smtps://user:pw@mail.example.com")
	if d := s.Describe(); d != "mail.example.com:465 (TLS)" || strings.Contains(d, "pw") {
		t.Errorf("describe: %q", d)
	}
}

// Templates escape what they show: a name cannot inject HTML.
func TestComposeEscapes(t *testing.T) {
	t.Parallel()
	m := invitation
	m.Name, m.Org = `<script>x</script>`, `A & B`
	b, err := mail.Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.HTML, "<script>") || !strings.Contains(b.HTML, "A &amp; B") || b.Subject != "You are invited to A & B" {
		t.Fatalf("%+v", b)
	}
}

// The notices about sign-in compose with what they say: the SSO-only
// answer to a reset carries no reset link (a sign-in link when there is
// one), the sign-in-changed notice the change, escaped, and the account
// page's link.
func TestComposeSignInNotices(t *testing.T) {
	t.Parallel()
	sso := mail.Message{Kind: mail.KindSSOOnly, To: "ada@example.com", Org: "Initech", Name: "Ada"}
	b, err := mail.Compose(sso)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Subject, "no password to reset") || strings.Contains(b.Text, "http") || strings.Contains(b.HTML, "<a ") {
		t.Fatalf("without a sign-in link: %+v", b)
	}
	sso.Link = "https://console.example.com/"
	if b, err = mail.Compose(sso); err != nil || !strings.Contains(b.Text, sso.Link) || !strings.Contains(b.HTML, `href="`+sso.Link+`"`) {
		t.Fatalf("with a sign-in link: %+v %v", b, err)
	}
	changed := mail.Message{Kind: mail.KindSignIn, To: "ada@example.com", Org: "Acme", Name: "Ada",
		Change: `The passkey “<b>Phone</b>” was removed.`, Link: "https://idp.example.com/ui/account"}
	if b, err = mail.Compose(changed); err != nil {
		t.Fatal(err)
	}
	if b.Subject != "How you sign in to Acme changed" || !strings.Contains(b.Text, changed.Change) || !strings.Contains(b.Text, changed.Link) ||
		strings.Contains(b.HTML, "<b>Phone") || !strings.Contains(b.HTML, `href="`+changed.Link+`"`) {
		t.Fatalf("sign-in changed: %+v", b)
	}
}
