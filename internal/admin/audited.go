package admin

import (
	"context"
	"strings"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

// acted is what a write acted on, for its audit event: the resource as a
// path of kind and id ("tenants/<id>"; a part of one further on,
// "tenants/<id>/members/<userId>"), and the customer it belongs to ("" for
// none), whose scoped readers and webhooks see the event.
type acted struct {
	resource   string
	customerID string
}

// on names the resource path of customerID's record (customerID "" for a
// record of no customer).
func on(customerID string, path ...string) acted {
	return acted{resource: strings.Join(path, "/"), customerID: customerID}
}

// audited runs write and appends op's audit event, by c on what, in one
// store transaction (D-audit-events): both commit or neither, so an audit
// insert that fails undoes the write and a process that stops between the
// two leaves neither. write makes its statements through tx alone (another
// connection would wait for this transaction's lock); checks and calls to
// other services come before it. A nil write records an operation whose
// effect is outside the database (a secret rotated at the identity
// provider, a database URI read).
func (s *core) audited(ctx context.Context, c *access.Caller, op Operation, what acted, write func(tx *store.Store) error) error {
	return s.store.InTx(ctx, func(tx *store.Store) error {
		if write != nil {
			if err := write(tx); err != nil {
				return err
			}
		}
		return s.access.RecordWrite(ctx, tx, c, access.Write{Action: op.Action, Operation: op.Name, Resource: what.resource,
			CustomerID: what.customerID})
	})
}

// auditedRow is audited for a write that answers the row it wrote.
func auditedRow[T any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted,
	write func(tx *store.Store) (*T, error)) (*T, error) {
	var row *T
	err := s.audited(ctx, c, op, what, func(tx *store.Store) (err error) {
		row, err = write(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return row, nil
}

// The steps the methods are made of beyond the decision: a write audited in
// its transaction that answers the view of the row it wrote, and, for the
// platform's own records (R4.6-infra), which no customer owns, the whole
// method of a list, a read or a write.

// updater is a store call that changes one record in place and answers it as
// stored: (*store.Store).UpdatePlan, UpdateWebhook, ….
type updater[R any] func(tx *store.Store, ctx context.Context, id string, change func(*R) error) (*R, error)

// created inserts row through insert, audited as op on what, and answers its view.
func created[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted, row *R,
	insert func(*store.Store, context.Context, *R) error, view func(*R) *V) (*V, error) {
	if err := s.audited(ctx, c, op, what, func(tx *store.Store) error { return insert(tx, ctx, row) }); err != nil {
		return nil, err
	}
	return view(row), nil
}

// changed applies change to the record id through update, audited as op on
// what, and answers the record's view as stored.
func changed[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted, id string,
	update updater[R], change func(*R) error, view func(*R) *V) (*V, error) {
	return viewing(view)(auditedRow(ctx, s, c, op, what, func(tx *store.Store) (*R, error) { return update(tx, ctx, id, change) }))
}

// reread runs write audited as op on what and answers the view of the
// record id as stored after it (load).
func reread[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted, write func(tx *store.Store) error,
	load func(context.Context, string) (*R, error), id string, view func(*R) *V) (*V, error) {
	if err := s.audited(ctx, c, op, what, write); err != nil {
		return nil, err
	}
	return viewing(view)(load(ctx, id))
}

// infraList answers the whole list of a kind of the platform's records
// (load) to c, decided on op.
func infraList[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation,
	load func(context.Context) ([]R, error), view func(*R) *V) (*Page[*V], error) {
	return wholeList(ctx, s.infra(ctx, c, op), load, view)
}

// infraCreate adds row, one of the platform's records, as op on what: fill
// completes and checks it from the input once op is decided (EINVALID), and
// it is stored through insert and answered as view.
func infraCreate[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted, row *R, fill func() error,
	insert func(*store.Store, context.Context, *R) error, view func(*R) *V) (*V, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	if err := fill(); err != nil {
		return nil, err
	}
	return created(ctx, s, c, op, what, row, insert, view)
}

// infraGet answers one of the platform's records (load id) to c, decided on
// op. ENOTFOUND.
func infraGet[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, id string,
	load func(context.Context, string) (*R, error), view func(*R) *V) (*V, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	return viewing(view)(load(ctx, id))
}

// infraChange is changed for one of the platform's records, decided on op first.
func infraChange[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, what acted, id string,
	update updater[R], change func(*R) error, view func(*R) *V) (*V, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	return changed(ctx, s, c, op, what, id, update, change, view)
}

// infraWrite runs write audited as op on what, one of the platform's
// records, decided on op first.
func (s *core) infraWrite(ctx context.Context, c *access.Caller, op Operation, what acted, write func(tx *store.Store) error) error {
	if err := s.infra(ctx, c, op); err != nil {
		return err
	}
	return s.audited(ctx, c, op, what, write)
}
