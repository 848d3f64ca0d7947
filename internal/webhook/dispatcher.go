package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// WorkerID is the dispatcher's row in system_workers (and its cursor name).
const WorkerID = "webhook-delivery"

// AllEvents in a webhook's events subscribes it to every event.
const AllEvents = "*"

// Dispatcher turns a customer's audit events into deliveries and sends
// them: its administration writes and its users' security events, never a
// refusal. Several
// replicas may run one each: deliveries are queued once per (webhook,
// event) and leased before they are sent. Zero fields take the defaults
// documented on them.
type Dispatcher struct {
	Store  *store.Store
	Sealer *secrets.Sealer
	// Egress is the outbound policy deliveries are sent under (D-egress):
	// internal addresses refused unless its Allow names them, redirects
	// not followed (a 3xx is a failed attempt).
	Egress egress.Policy
	// Now is the clock (tests set it).
	Now func() time.Time
	// Backoff is the wait after the n-th failed attempt (n ≥ 1); default
	// 30 s × 2^(n-1), at most 6 h.
	Backoff func(n int) time.Duration
	// MaxAttempts before a delivery is given up as failed; default 10.
	MaxAttempts int
	// Lookback re-reads the audit log this far behind the cursor, for
	// events another replica committed late; default 1 min.
	Lookback time.Duration
	// Lease is how long a claimed delivery is kept from other replicas
	// while it is sent; default 1 min.
	Lease time.Duration

	once   sync.Once
	client *http.Client
}

// Stats is what one RunOnce did.
type Stats struct {
	Queued, Delivered, Retried, Failed int
}

// DefaultBackoff is 30 s × 2^(n-1), at most 6 h.
func DefaultBackoff(n int) time.Duration { return background.Backoff(n) }

func (d *Dispatcher) init() {
	d.once.Do(func() {
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Backoff == nil {
			d.Backoff = DefaultBackoff
		}
		if d.MaxAttempts <= 0 {
			d.MaxAttempts = 10
		}
		if d.Lookback <= 0 {
			d.Lookback = time.Minute
		}
		if d.Lease <= 0 {
			d.Lease = time.Minute
		}
		d.client = d.Egress.Client()
	})
}

// Event is the JSON body of a delivery: the audit event in the one schema
// of the audit trail (D-audit-trail), as the REST API, GraphQL and the
// export answer it.
type Event = audit.Event

// eventOf reads an audit event of the log.
func eventOf(e *store.AuditEvent) Event { return audit.FromRow(e) }

// subscribed reports whether a webhook subscribed to events takes e: every
// event ("*"), its kind (a security event's, sign_in, or admin.write), or,
// for an administration write, its action (manage_tenant).
func subscribed(events []string, e *Event) bool {
	return slices.Contains(events, AllEvents) || slices.Contains(events, e.Kind) ||
		(e.Action != "" && slices.Contains(events, e.Action))
}

// RunOnce queues the deliveries of events seen since the last run and
// sends those that are due.
func (d *Dispatcher) RunOnce(ctx context.Context) (Stats, error) {
	d.init()
	var st Stats
	n, err := d.enqueue(ctx)
	st.Queued = n
	if err != nil {
		return st, err
	}
	return d.deliver(ctx, st)
}

// enqueue reads the audit log from the cursor (less Lookback) and queues
// one delivery per subscribed webhook and event; queuing is idempotent.
func (d *Dispatcher) enqueue(ctx context.Context) (int, error) {
	cursor, err := d.Store.WebhookCursor(ctx, WorkerID)
	if err != nil {
		return 0, err
	}
	at, eventID, webhookID := cursor, "", ""
	if !at.IsZero() {
		at = at.Add(-d.Lookback)
	}
	queued := 0
	const page = 500
	for {
		pairs, err := d.Store.WebhookEvents(ctx, at, eventID, webhookID, page)
		if err != nil {
			return queued, err
		}
		for _, p := range pairs {
			ev := eventOf(&p.Event)
			if !subscribed(p.WebhookEvent, &ev) {
				continue
			}
			body, err := json.Marshal(ev)
			if err != nil {
				return queued, err
			}
			now := d.Now().UTC()
			ok, err := d.Store.AddWebhookDelivery(ctx, &store.WebhookDelivery{ID: newID(), WebhookID: p.WebhookID,
				EventID: ev.ID, EventType: ev.Kind, Payload: string(body), NextAttemptAt: now, CreatedAt: now})
			if err != nil {
				return queued, err
			}
			if ok {
				queued++
			}
		}
		if len(pairs) > 0 {
			last := pairs[len(pairs)-1]
			at, eventID, webhookID = last.Event.At, last.Event.ID, last.WebhookID
			if err := d.Store.SetWebhookCursor(ctx, WorkerID, at); err != nil {
				return queued, err
			}
		}
		if len(pairs) < page {
			return queued, nil
		}
	}
}

// deliver sends the due deliveries, four at a time, on the one loop of
// leased deliveries (background.Deliver).
func (d *Dispatcher) deliver(ctx context.Context, st Stats) (Stats, error) {
	now := d.Now()
	due, err := d.Store.DueWebhookDeliveries(ctx, now, 200)
	if err != nil {
		return st, err
	}
	counts, err := background.Deliver(ctx, due, 4, func(ctx context.Context, del *store.WebhookDelivery) (bool, error) {
		return d.Store.ClaimWebhookDelivery(ctx, del.ID, now, now.Add(d.Lease))
	}, d.attempt)
	st.Delivered += counts[store.DeliveryDelivered]
	st.Failed += counts[store.DeliveryFailed]
	st.Retried += counts[store.DeliveryPending]
	return st, err
}

// attempt sends one delivery and records how it went: delivered on 2xx,
// pending again after Backoff, or failed once MaxAttempts are spent. The
// record keeps the answer's status and a short error ("the receiver
// answered 503", "refused by the egress policy", "timeout", …), never the
// answer's body.
func (d *Dispatcher) attempt(ctx context.Context, del *store.WebhookDelivery) (string, error) {
	code, sendErr := d.send(ctx, del)
	if errors.Is(sendErr, errDeleted) {
		return "", nil
	}
	now := d.Now().UTC()
	del.Attempts++
	del.LastStatusCode = code
	del.LastError = ""
	switch {
	case sendErr == nil:
		del.Status, del.DeliveredAt, del.NextAttemptAt = store.DeliveryDelivered, &now, now
	case del.Attempts >= d.MaxAttempts || errors.Is(sendErr, errGone):
		del.Status, del.NextAttemptAt = store.DeliveryFailed, now
	default:
		del.Status, del.NextAttemptAt = store.DeliveryPending, now.Add(d.Backoff(del.Attempts))
	}
	if sendErr != nil {
		del.LastError = truncate(sendErr.Error(), 500)
	}
	if err := d.Store.RecordWebhookAttempt(context.WithoutCancel(ctx), del); err != nil {
		return "", err
	}
	return del.Status, nil
}

var (
	// errGone: the webhook was switched off; its pending deliveries fail at once.
	errGone = errors.New("the webhook is inactive")
	// errDeleted: the webhook was removed, and its deliveries with it.
	errDeleted = errors.New("the webhook was deleted")
)

// send POSTs a delivery; it returns the answer's status and an error unless 2xx.
func (d *Dispatcher) send(ctx context.Context, del *store.WebhookDelivery) (int, error) {
	w, err := d.Store.Webhook(ctx, del.WebhookID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return 0, errDeleted
	} else if err != nil {
		return 0, err
	}
	if !w.Active {
		return 0, errGone
	}
	secret, err := d.Sealer.Open(w.SecretSealed, secrets.LabelWebhookSecret(w.ID))
	if err != nil {
		return 0, fmt.Errorf("open the webhook's secret: %w", err)
	}
	body := []byte(del.Payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "platform-webhooks/1")
	req.Header.Set(IDHeader, del.EventID)
	req.Header.Set(EventHeader, del.EventType)
	req.Header.Set(SignatureHeader, Sign(string(secret), d.Now(), body))
	resp, err := d.client.Do(req)
	if err != nil {
		code := 0
		if resp != nil { // a redirect, not followed; its body is closed
			code = resp.StatusCode
		}
		return code, sendError{err}
	}
	defer resp.Body.Close()
	// The answer's body is read (to reuse the connection) and dropped:
	// neither the delivery record nor a log keeps it.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// sendError is a request that got no usable answer; its text is
// egress.Describe's phrase, so the delivery record (which the customer's
// administrators read) shows neither the address tried nor anything the
// receiver sent.
type sendError struct{ err error }

func (e sendError) Error() string { return egress.Describe(e.err) }
func (e sendError) Unwrap() error { return e.err }

// Run calls Tick every interval until ctx ends.
func (d *Dispatcher) Run(ctx context.Context, interval time.Duration) {
	d.init()
	background.Every(ctx, "webhook dispatcher", interval, interval/10, func(ctx context.Context) error {
		_, err := d.Tick(ctx)
		return err
	})
}

// Tick is one scheduled run: RunOnce unless the worker is paused in
// system_workers (a requested run goes ahead anyway), recorded there (time,
// error, consecutive failures; the request cleared). It reports whether it
// ran; the error is the run's or the record's.
func (d *Dispatcher) Tick(ctx context.Context) (bool, error) {
	d.init()
	w, err := d.Store.SystemWorker(ctx, WorkerID)
	if err != nil {
		return false, err
	}
	if w.Paused && w.RunRequestedAt == nil {
		return false, nil
	}
	st, runErr := d.RunOnce(ctx)
	msg := ""
	if runErr != nil {
		msg = truncate(runErr.Error(), 500)
	} else if st != (Stats{}) {
		slog.InfoContext(ctx, "webhook dispatcher", "queued", st.Queued, "delivered", st.Delivered, "retried", st.Retried, "failed", st.Failed)
	}
	if err := d.Store.RecordWorkerRun(context.WithoutCancel(ctx), WorkerID, d.Now(), msg); err != nil {
		return true, errors.Join(runErr, err)
	}
	return true, runErr
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
