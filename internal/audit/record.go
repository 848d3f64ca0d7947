package audit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/store"
)

// Entry is a security event as the identity provider records it; Record
// completes it from the request (its id, address and user agent) and
// stores it.
type Entry struct {
	Kind Kind
	// Failed makes the outcome a failure; Reason says why (a code, never a
	// password, a code, a token or a secret).
	Failed bool
	Reason string
	// ActorID is the user who acted (the account signing in); ActorEmail
	// the address typed when no account answers to it (otherwise the
	// store reads the user's own).
	ActorID, ActorEmail string
	Target              Target
	// CustomerOf is the user whose customer sees the event (its scoped
	// readers, its webhooks); "" for a platform-wide event, such as a
	// failed sign-in for an address without an account, which tells no
	// customer whether an address exists.
	CustomerOf string
	Details    Details
	// ImpersonatorID is who acted as ActorID (an impersonation's internal
	// user, a delegation's service account); "" when the user acted itself.
	ImpersonatorID string
}

// Appender stores an audit event: the store, or one of its transactions.
type Appender interface {
	AppendAudit(ctx context.Context, e *store.AuditEvent) error
}

// Record stores e, made at now, through db: the transaction of what it
// records where there is one, so both commit or neither. Its error is the
// transaction's.
func Record(ctx context.Context, db Appender, now time.Time, e Entry) error {
	return db.AppendAudit(ctx, Row(ctx, now, e))
}

// RecordTimeout bounds the write of an event recorded after what it
// records (RecordAfter); it goes on when the request's client hangs up.
const RecordTimeout = 5 * time.Second

// RecordAfter stores e, made at now, on its own, after what it records
// (which had no transaction, or answers whatever the record does). A
// failed write is logged and not returned: the request's answer does not
// depend on it, so a sign-in is neither refused because its record failed
// nor answered differently for an address with an account.
func RecordAfter(ctx context.Context, db Appender, now time.Time, e Entry) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RecordTimeout)
	defer cancel()
	if err := Record(wctx, db, now, e); err != nil {
		slog.ErrorContext(ctx, "audit log", "err", err, "kind", e.Kind)
	}
}

// Row is the audit_log row of e, made at now, in the request of ctx.
func Row(ctx context.Context, now time.Time, e Entry) *store.AuditEvent {
	ip, ua := httpapi.Source(ctx)
	r := &store.AuditEvent{ID: NewID(), At: now.UTC(), Kind: string(e.Kind), ActorID: e.ActorID, ActorEmail: e.ActorEmail,
		Decision: "allowed", Reason: e.Reason, Status: 200, RequestID: httpapi.RequestID(ctx), TargetType: e.Target.Type,
		TargetID: e.Target.ID, TargetName: e.Target.Name, SourceIP: ip, UserAgent: ua, Details: e.Details.encode(),
		CustomerOfUser: e.CustomerOf, ImpersonatorID: e.ImpersonatorID}
	if e.Failed {
		r.Decision, r.Status = "denied", 401
	}
	return r
}

// NewID is an audit event's id: 128 random bits, hex.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
