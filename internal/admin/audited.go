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
