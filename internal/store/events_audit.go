package store

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// AuditEvent is one entry of the audit log: an administration write, a
// denial or a security event (D-audit-trail). The audit package maps it to
// the schema the APIs answer.
type AuditEvent struct {
	ID string
	At time.Time
	// Kind is the event's kind (sign_in, admin.write, …).
	Kind       string
	ActorID    string
	CustomerID string
	Action     string
	// Operation is the declared administration operation of an allowed
	// write ("tenant.update"); "" for denials and other events.
	Operation string
	Resource  string
	Decision  string // allowed or denied: the outcome, success or failure
	Reason    string
	Status    int
	RequestID string
	// The actor as it was when the event was written. Empty fields are
	// filled by AppendAudit from ActorID's user: its address, organization
	// and console role (a customer organization's user without one is a
	// member).
	ActorEmail, ActorOrgID, ActorRole string
	// What the event acted on; a user's TargetName is filled with its
	// address, an application's with its name, when left empty.
	TargetType, TargetID, TargetName string
	SourceIP, UserAgent              string
	// Details is a JSON object of the kind's own fields ("{}" when empty).
	Details string
	// CustomerOfUser, when CustomerID is empty, gives the event the
	// customer of that user's organization (none when the organization is
	// no customer's): whose scoped readers and webhooks see it.
	CustomerOfUser string
	// Seq is the event's place in the stream (AuditStream), set by AppendAudit.
	Seq int64
	// ImpersonatorID is who acted for ActorID: the internal user of an
	// impersonation, or the service account of a delegation (the access
	// token's act claim; D-impersonation). "" otherwise.
	ImpersonatorID string
}

// auditColumns are the columns of audit_log (aliased a) in auditDest's order.
const auditColumns = `a.id, a.at, a.kind, a.actor_id, COALESCE(a.customer_id, ''), a.action, a.operation, a.resource,
	a.decision, a.reason, a.status, a.request_id, a.actor_email, a.actor_org_id, a.actor_role, a.target_type, a.target_id,
	a.target_name, a.source_ip, a.user_agent, a.details, a.seq, a.impersonator_id`

// auditDest is where a row of auditColumns is scanned to.
func auditDest(e *AuditEvent) []any {
	return []any{&e.ID, &e.At, &e.Kind, &e.ActorID, &e.CustomerID, &e.Action, &e.Operation, &e.Resource, &e.Decision,
		&e.Reason, &e.Status, &e.RequestID, &e.ActorEmail, &e.ActorOrgID, &e.ActorRole, &e.TargetType, &e.TargetID,
		&e.TargetName, &e.SourceIP, &e.UserAgent, &e.Details, &e.Seq, &e.ImpersonatorID}
}

func scanAudit(r Row) (AuditEvent, error) {
	var e AuditEvent
	return e, r.Scan(auditDest(&e)...)
}

// AppendAudit stores an audit event, through the transaction of what it
// records when s is one. Its place in the stream is the writing
// transaction's (D-audit-stream): on PostgreSQL its transaction id, which
// the stream reads only once every older transaction has ended; on SQLite,
// whose writers take turns holding the database's write lock until they
// commit, one more than the largest so far, so the order is the order of
// commits. What the event leaves empty of its actor, its target's name and
// its customer (CustomerOfUser) is read from the rows as they are now, in
// the same statement.
//
// The statement reads only what is left empty: one whose fallbacks hung on
// its parameters' values (COALESCE($n, (SELECT …))) would be planned anew
// on each call by PostgreSQL, whose custom plan folds the fallbacks away
// and so always looks cheaper than the generic one.
func (s *Events) AppendAudit(ctx context.Context, e *AuditEvent) error {
	details := e.Details
	if details == "" {
		details = "{}"
	}
	seq := `COALESCE((SELECT MAX(seq) FROM audit_log), 0) + 1`
	if s.Dialect() == Postgres {
		seq = `pg_current_xact_id()::text::bigint + ` + streamShift
	}
	var args []any
	actor := ""
	actorArg := func() string {
		if actor == "" {
			actor = arg(&args, e.ActorID)
		}
		return actor
	}
	// orRead is v's placeholder when v is set, else what read answers or ''.
	orRead := func(v string, read func() string) string {
		if v != "" {
			return arg(&args, v)
		}
		if read == nil {
			return "''"
		}
		return "COALESCE(" + read() + ", '')"
	}
	values := []string{arg(&args, e.ID), arg(&args, e.At.UTC()), actorArg()}
	switch {
	case e.CustomerID != "":
		values = append(values, arg(&args, e.CustomerID))
	case e.CustomerOfUser != "":
		values = append(values, "(SELECT c.id FROM users u JOIN customers c ON c.org_id = u.org_id WHERE u.id = "+arg(&args, e.CustomerOfUser)+")")
	default:
		values = append(values, "NULL")
	}
	values = append(values, arg(&args, e.Action), arg(&args, e.Operation), arg(&args, e.Resource), arg(&args, e.Decision),
		arg(&args, e.Reason), arg(&args, e.Status), arg(&args, e.RequestID), arg(&args, e.Kind),
		orRead(e.ActorEmail, func() string { return "(SELECT email FROM users WHERE id = " + actorArg() + ")" }),
		orRead(e.ActorOrgID, func() string { return "(SELECT org_id FROM users WHERE id = " + actorArg() + ")" }),
		orRead(e.ActorRole, func() string {
			return "(SELECT role FROM console_users WHERE user_id = " + actorArg() + "), " +
				"(SELECT 'member' FROM users u JOIN customers c ON c.org_id = u.org_id WHERE u.id = " + actorArg() + ")"
		}),
		arg(&args, e.TargetType))
	target := arg(&args, e.TargetID)
	var readName func() string
	switch e.TargetType {
	case "user":
		readName = func() string { return "(SELECT email FROM users WHERE id = " + target + ")" }
	case "application":
		readName = func() string { return "(SELECT name FROM applications WHERE client_id = " + target + ")" }
	}
	values = append(values, target, orRead(e.TargetName, readName),
		arg(&args, e.SourceIP), arg(&args, e.UserAgent), arg(&args, details), arg(&args, e.ImpersonatorID), seq)
	_, err := s.db.Exec(ctx, `INSERT INTO audit_log (id, at, actor_id, customer_id, action, operation, resource, decision, reason,
		status, request_id, kind, actor_email, actor_org_id, actor_role, target_type, target_id, target_name, source_ip,
		user_agent, details, impersonator_id, seq)
		VALUES (`+strings.Join(values, ", ")+`)`, args...)
	return wrap(err, "audit event")
}

// AuditQuery selects audit events, newest first: within Scope (events of no
// customer only when it lets everything through), narrowed by the filters
// that are set, one page of at most Limit (platform.LogPages) after Cursor
// (the previous page's next cursor).
type AuditQuery struct {
	Scope authz.Filter
	// ActorID is one actor's events; ActorEmail those whose actor's
	// address contains it (case does not matter).
	ActorID, ActorEmail string
	// TargetID is the events that acted on one object.
	TargetID string
	// Kind is one kind of event; Outcome success or failure.
	Kind, Outcome string
	// From and To bound the time: From ≤ at < To, each when not zero.
	From, To time.Time
	Limit    int
	Cursor   string
}

// AuditEvents lists one page of audit events, newest first, and the cursor
// of the next page ("" on the last). EINVALID for a malformed cursor.
func (s *Events) AuditEvents(ctx context.Context, q AuditQuery) ([]AuditEvent, string, error) {
	if err := checkNewestCursor(q.Cursor); err != nil || q.Scope.Empty() {
		return nil, "", err
	}
	var args []any
	conds := []string{scopeCondition(&args, q.Scope, "a.customer_id", "")}
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = "+arg(&args, v))
		}
	}
	eq("a.actor_id", q.ActorID)
	eq("a.target_id", q.TargetID)
	eq("a.kind", q.Kind)
	switch q.Outcome {
	case "success":
		conds = append(conds, "a.decision = 'allowed'")
	case "failure":
		conds = append(conds, "a.decision = 'denied'")
	}
	if q.ActorEmail != "" {
		conds = append(conds, `LOWER(a.actor_email) LIKE `+arg(&args, "%"+likeEscape(strings.ToLower(q.ActorEmail))+"%")+` ESCAPE '\'`)
	}
	if !q.From.IsZero() {
		conds = append(conds, "a.at >= "+arg(&args, q.From.UTC()))
	}
	if !q.To.IsZero() {
		conds = append(conds, "a.at < "+arg(&args, q.To.UTC()))
	}
	return newestPage(ctx, s.db, q.Cursor, q.Limit, `SELECT `+auditColumns+` FROM audit_log a`, strings.Join(conds, " AND "),
		args, "a.at", scanAudit, func(e *AuditEvent) (time.Time, string) { return e.At, e.ID })
}

// AuditStreamQuery reads the stream of audit events (the export): within
// Scope, after Cursor (AuditStream's next cursor; "" from the start), at
// most Limit.
type AuditStreamQuery struct {
	Scope  authz.Filter
	Cursor string
	Limit  int
}

// AuditStream answers the events after q.Cursor in the order of the
// stream, at most q.Limit, and the cursor to resume from (q.Cursor when
// nothing new). An event is read only once no event can commit before it
// any more (D-audit-stream): on PostgreSQL the events of transactions older
// than every transaction still running, so an event committed late with an
// earlier place is never passed by a reader; on SQLite every committed
// event. Resuming from the cursor therefore loses and repeats nothing while
// events are written. EINVALID for a malformed cursor.
func (s *Events) AuditStream(ctx context.Context, q AuditStreamQuery) ([]AuditEvent, string, error) {
	seq, id, err := decodeStreamCursor(q.Cursor)
	if err != nil || q.Scope.Empty() {
		return nil, q.Cursor, err
	}
	args := []any{seq, id}
	cond := `(a.seq > $1 OR (a.seq = $1 AND a.id > $2)) AND ` + scopeCondition(&args, q.Scope, "a.customer_id", "")
	if s.Dialect() == Postgres {
		cond += ` AND a.seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint + ` + streamShift
	}
	rows, err := queryAll(ctx, s.db, scanAudit, `SELECT `+auditColumns+` FROM audit_log a WHERE `+cond+
		` ORDER BY a.seq, a.id LIMIT `+arg(&args, q.Limit), args...)
	if err != nil || len(rows) == 0 {
		return nil, q.Cursor, err
	}
	last := rows[len(rows)-1]
	return rows, streamCursor(last.Seq, last.ID), nil
}

// streamShift is what the stream adds to a PostgreSQL transaction id
// (AlignAuditStream).
const streamShift = `(SELECT shift FROM audit_stream WHERE id = 1)`

// AlignAuditStream keeps the stream's places growing on PostgreSQL when
// the database was restored into a server whose transaction ids are
// behind them (a dump restored elsewhere; pg_upgrade keeps them): it moves
// the shift so that the next transaction's events come after every event
// stored, and a reader resuming from its cursor misses none of them. Run
// it at start, before serving; it does nothing on SQLite and when the
// places are ahead already.
func (s *Events) AlignAuditStream(ctx context.Context) error {
	if s.Dialect() != Postgres {
		return nil
	}
	_, err := s.db.Exec(ctx, `UPDATE audit_stream SET shift = (SELECT MAX(seq) FROM audit_log) - pg_current_xact_id()::text::bigint + 1
		WHERE id = 1 AND (SELECT MAX(seq) FROM audit_log) >= pg_current_xact_id()::text::bigint + shift`)
	return err
}

// streamCursor is the cursor after the event at (seq, id) of the stream.
func streamCursor(seq int64, id string) string {
	return EncodeCursor(strconv.FormatInt(seq, 10), id)
}

func decodeStreamCursor(c string) (int64, string, error) {
	if c == "" {
		return -1, "", nil
	}
	k, id, err := DecodeCursor(c)
	if err != nil {
		return 0, "", err
	}
	seq, err := strconv.ParseInt(k, 10, 64)
	if err != nil || seq < 0 {
		return 0, "", platform.Errorf(platform.EINVALID, "cursor is not valid")
	}
	return seq, id, nil
}

// PruneAudit deletes at most limit audit events older than before, oldest
// first, and answers how many it deleted. The newest event stays whatever
// its age, so that the stream's places never start again from the
// beginning (SQLite numbers them from the largest kept).
func (s *Events) PruneAudit(ctx context.Context, before time.Time, limit int) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM audit_log WHERE id IN (
		SELECT id FROM audit_log WHERE at < $1 ORDER BY at, id LIMIT $2)
		AND id <> (SELECT id FROM audit_log ORDER BY seq DESC, id DESC LIMIT 1)`, before.UTC(), limit)
}
