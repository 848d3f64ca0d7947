package mail

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// Worker delivers the outbox on the loop webhook deliveries use
// (background.Deliver): each due message is leased, sent, and recorded as
// sent, queued again after Backoff, or failed once MaxAttempts are spent.
// Several replicas may run one each. Zero fields take the defaults
// documented on them.
type Worker struct {
	Store  *store.Store
	Sealer *secrets.Sealer
	// Sender delivers messages; nil means no mail server is configured:
	// due messages are marked "not configured" and keep their body (the
	// all-in-one role's development mailbox shows them).
	Sender Sender
	From   string // MAIL_FROM
	// Now is the clock (tests set it).
	Now func() time.Time
	// Backoff is the wait after the n-th failed attempt; default background.Backoff.
	Backoff func(n int) time.Duration
	// MaxAttempts before a message is given up as failed; default 8.
	MaxAttempts int
	// Lease keeps a claimed message from other replicas while it is sent;
	// default 2 min (longer than the sender's timeout).
	Lease time.Duration
}

// Stats is what one RunOnce did.
type Stats struct {
	Sent, Retried, Failed, NotConfigured int
}

func (w *Worker) defaults() {
	if w.Now == nil {
		w.Now = time.Now
	}
	if w.Backoff == nil {
		w.Backoff = background.Backoff
	}
	if w.MaxAttempts <= 0 {
		w.MaxAttempts = 8
	}
	if w.Lease <= 0 {
		w.Lease = 2 * time.Minute
	}
}

// RunOnce sends the messages that are due.
func (w *Worker) RunOnce(ctx context.Context) (Stats, error) {
	w.defaults()
	now := w.Now()
	due, err := w.Store.DueEmails(ctx, now, 100)
	if err != nil {
		return Stats{}, err
	}
	counts, err := background.Deliver(ctx, due, 4, func(ctx context.Context, e *store.Email) (bool, error) {
		return w.Store.ClaimEmail(ctx, e.ID, now, now.Add(w.Lease))
	}, w.attempt)
	return Stats{Sent: counts[store.EmailSent], Retried: counts[store.EmailQueued], Failed: counts[store.EmailFailed],
		NotConfigured: counts[store.EmailNotConfigured]}, err
}

// attempt sends one message and records the outcome. The error kept is a
// short description (never the body, never credentials).
func (w *Worker) attempt(ctx context.Context, e *store.Email) (string, error) {
	now := w.Now().UTC()
	var sendErr error
	if w.Sender == nil {
		e.Status, e.LastError, e.NextAttemptAt = store.EmailNotConfigured, "no mail server is configured (SMTP_URL)", now
	} else {
		body, err := Open(w.Sealer, e)
		if err != nil {
			sendErr = permanent{errors.New("the message body cannot be opened (was SECRETS_KEY changed?)")}
		} else {
			sendErr = w.Sender.Send(ctx, w.From, e.Recipient, body)
		}
		e.Attempts++
		e.LastError = ""
		var perm permanent
		switch {
		case sendErr == nil:
			e.Status, e.SentAt, e.NextAttemptAt = store.EmailSent, &now, now
		case e.Attempts >= w.MaxAttempts || errors.As(sendErr, &perm):
			e.Status, e.NextAttemptAt = store.EmailFailed, now
		default:
			e.Status, e.NextAttemptAt = store.EmailQueued, now.Add(w.Backoff(e.Attempts))
		}
		if sendErr != nil {
			e.LastError = describe(sendErr)
			slog.WarnContext(ctx, "e-mail delivery failed", "email_id", e.ID, "kind", e.Kind, "attempt", e.Attempts,
				"status", e.Status, "err", e.LastError)
		}
	}
	if err := w.Store.RecordEmailAttempt(context.WithoutCancel(ctx), e); err != nil {
		return "", err
	}
	return e.Status, nil
}

// describe is the short reason the e-mail log shows.
func describe(err error) string {
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the mail server refused the connection"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "the mail server did not answer in time"
	case errors.As(err, &dns):
		return "the mail server's name does not resolve"
	case errors.As(err, &op):
		return "the connection to the mail server failed"
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return msg
}

// Run sends due messages every interval until ctx ends.
func (w *Worker) Run(ctx context.Context, interval time.Duration) {
	w.defaults()
	background.Every(ctx, "mail worker", interval, interval/10, func(ctx context.Context) error {
		st, err := w.RunOnce(ctx)
		if st != (Stats{}) {
			slog.InfoContext(ctx, "mail worker", "sent", st.Sent, "retried", st.Retried, "failed", st.Failed,
				"not_configured", st.NotConfigured)
		}
		return err
	})
}
