package admin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// core is what every part of the Service shares: the store, the access
// service that decides (and audits a denial), the clock and the sealer of
// secrets at rest. The audited write (audited.go) and the generic steps of
// a method (check, load, write, view) are built on it; a part that needs
// anything else (the identity provider's applications, the egress policy)
// holds it itself.
type core struct {
	store  *store.Store
	access *access.Service
	now    func() time.Time
	sealer *secrets.Sealer // WithSealer; nil: a key made at start
}

// check decides op on res for c through the access service (which audits a
// denial).
func (s *core) check(ctx context.Context, c *access.Caller, op Operation, res authz.Resource) error {
	return s.access.Check(ctx, c, s.actionOf(c, op), res, op.Write)
}

// checkRole refuses c when its role does not hold op at all (or only reads
// it, for a write), whatever the resource: the check of a list, which the
// scope filters.
func (s *core) checkRole(ctx context.Context, c *access.Caller, op Operation) error {
	return s.access.CheckRole(ctx, c, s.actionOf(c, op), op.Write)
}

// checkMissing answers for a record of op that does not exist (err) what an
// existing one outside c's scope would get (access.CheckMissing).
func (s *core) checkMissing(ctx context.Context, c *access.Caller, op Operation, err error) error {
	return s.access.CheckMissing(ctx, c, s.actionOf(c, op), op.Write, err)
}

// actionOf is the action c is decided on for op (Operation.ActionFor).
func (s *core) actionOf(c *access.Caller, op Operation) authz.Action {
	return op.ActionFor(s.access.Catalog(), c)
}

// infra checks an operation on what no customer owns: the internal
// infrastructure, internal users, the caller's own data.
func (s *core) infra(ctx context.Context, c *access.Caller, op Operation) error {
	return s.check(ctx, c, op, authz.Resource{})
}

// decided checks op on the record a store call answers and returns it: a
// missing record (ENOTFOUND) answers as an out-of-scope one would, so a
// scoped caller never learns whether an id exists (R4.6-id-scope).
func decided[T any](ctx context.Context, s *core, c *access.Caller, op Operation,
	resource func(*T) authz.Resource) func(*T, error) (*T, error) {
	return func(row *T, err error) (*T, error) {
		if err != nil {
			return nil, s.checkMissing(ctx, c, op, err)
		}
		if err := s.check(ctx, c, op, resource(row)); err != nil {
			return nil, err
		}
		return row, nil
	}
}

// customerFor loads a customer and checks op on it; a missing one answers
// as an out-of-scope one would. Every part that acts on a customer's
// records (its users, billing, configuration) starts here.
func (s *core) customerFor(ctx context.Context, c *access.Caller, id string, op Operation) (*platform.Customer, error) {
	return decided(ctx, s, c, op, customerResource)(s.store.Customer(ctx, id))
}

// ofCustomer reads customer customerID's record of a kind (load), once op
// is decided on the customer (customerFor).
func ofCustomer[R any](ctx context.Context, s *core, c *access.Caller, op Operation, customerID string,
	load func(context.Context, string) (R, error)) (R, error) {
	if _, err := s.customerFor(ctx, c, customerID, op); err != nil {
		var none R
		return none, err
	}
	return load(ctx, customerID)
}

// createIn decides c's role on op, a create of a record of customer
// customerID, before the customer is looked at: EFORBIDDEN for a role
// without op, then EINVALID when no customer is named. The decision on the
// customer itself follows once it is loaded.
func (s *core) createIn(ctx context.Context, c *access.Caller, op Operation, customerID string) error {
	if err := s.checkRole(ctx, c, op); err != nil {
		return err
	}
	if customerID == "" {
		return platform.Errorf(platform.EINVALID, "customerId is required")
	}
	return nil
}

// destination loads the customer a record of customer from moves to (to),
// a move across customers (R4.6-admin-only); what names the record in the
// messages. EINVALID when to is not given, is from, or names no customer.
func (s *core) destination(ctx context.Context, from, to, what string) (*platform.Customer, error) {
	switch {
	case to == "":
		return nil, platform.Errorf(platform.EINVALID, "customerId is required")
	case to == from:
		return nil, platform.Errorf(platform.EINVALID, "the %s already belongs to this customer", what)
	}
	dest, err := s.store.Customer(ctx, to)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
	}
	return dest, err
}

// stamp returns the service's clock at the precision both databases keep.
func (s *core) stamp() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func newID() string { return uuid.NewString() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var (
	ephemeralOnce   sync.Once
	ephemeralSealer *secrets.Sealer
)

func (s *core) secrets() *secrets.Sealer {
	if s.sealer != nil {
		return s.sealer
	}
	ephemeralOnce.Do(func() {
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		ephemeralSealer, _ = secrets.New(key)
		slog.Warn("admin: no secrets key configured; secrets sealed now cannot be opened after a restart")
	})
	return ephemeralSealer
}

// open opens a secret of a row of table sealed under label.
func (s *core) open(sealed []byte, label secrets.Label, table string) (string, error) {
	b, err := s.secrets().Open(sealed, label)
	if err != nil {
		return "", platform.Errorf(platform.EINTERNAL, "a sealed secret of %s cannot be opened", table)
	}
	return string(b), nil
}

// queueMail writes a message to the outbox through tx, the transaction of
// the change that causes it (D-mail), in the recipient's saved language,
// else the language of the request that causes it (D-languages).
func (s *core) queueMail(ctx context.Context, tx *store.Store, m mail.Message) error {
	if m.Lang == "" {
		saved := ""
		if u, err := tx.User(ctx, m.UserID); err == nil {
			saved = u.Locale
		}
		m.Lang = i18n.ForMail(ctx, saved)
	}
	return (&mail.Outbox{Sealer: s.secrets(), Now: s.now}).Queue(ctx, tx, m)
}

// The resources a transport decides on before it calls a service (the REST
// route table, for a route's {id}) are the parts' …Resource methods:
// ENOTFOUND when the record does not exist. The service methods decide again.

// located answers the resource of the record a store call answers, or its error.
func located[T any](resource func(*T) authz.Resource) func(*T, error) (authz.Resource, error) {
	return func(row *T, err error) (authz.Resource, error) {
		if err != nil {
			return authz.Resource{}, err
		}
		return resource(row), nil
	}
}
