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
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// Service holds the administration rules the REST routes and the GraphQL
// resolvers share. Every method takes the caller, checks its permission
// through access.Service.Check itself on the method's declared Operation
// (D-access-path: the services check again, so no transport can skip it),
// records a successful write in the audit log in the write's own
// transaction (audited) and returns coded errors: EINVALID for bad
// input, ENOTFOUND or EFORBIDDEN for a refused or missing resource (the
// status the scope mode asks for), ECONFLICT for a clash with stored data.
// Lists are filtered by the caller's scope in SQL and never answer 403 for
// scope; a role that does not hold the list's action gets EFORBIDDEN.
type Service struct {
	store  *store.Store
	access *access.Service
	apps   Apps
	vault  Vault
	now    func() time.Time
	sealer *secrets.Sealer // secrets at rest of the admin resources (WithSealer)
	egress egress.Policy   // where webhook URLs may point (WithEgress)
	// adminOrgID is the administrator organization, home of internal users.
	adminOrgID string
	issuer     string // the identity provider's public URL (WithIssuer)
}

// Option configures New and NewService.
type Option func(*Service)

// WithApps sets how instances register their application at the identity
// provider (R2.5-instance-app). Without it, creating an instance fails.
func WithApps(apps Apps) Option { return func(s *Service) { s.apps = apps } }

// WithVault sets where instance database URIs are resolved.
func WithVault(v Vault) Option { return func(s *Service) { s.vault = v } }

// WithAdminOrg sets the administrator organization internal users are created in.
func WithAdminOrg(orgID string) Option { return func(s *Service) { s.adminOrgID = orgID } }

// WithClock sets the service's clock (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithSealer sets the sealer of secrets kept at rest (identity-provider
// client secrets, webhook signing secrets, secret environment variables).
// Without it a key made at start is used, which a restart loses: fine for
// tests, wrong for production (server.Main always sets one).
func WithSealer(sl *secrets.Sealer) Option { return func(s *Service) { s.sealer = sl } }

// WithEgress sets the outbound policy a webhook URL is checked against
// when it is set (D-egress); the default, the zero Policy, refuses every
// internal address. Deliveries check each connection again.
func WithEgress(p egress.Policy) Option { return func(s *Service) { s.egress = p } }

// NewService returns the administration service.
func NewService(st *store.Store, acc *access.Service, opts ...Option) *Service {
	s := &Service{store: st, access: acc, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if s.apps == nil {
		s.apps = noApps{}
	}
	if s.vault == nil {
		s.vault = storeVault{st}
	}
	return s
}

// check decides op on res for c through the access service (which audits a
// denial).
func (s *Service) check(ctx context.Context, c *access.Caller, op Operation, res authz.Resource) error {
	return s.access.Check(ctx, c, s.actionOf(c, op), res, op.Write)
}

// checkRole refuses c when its role does not hold op at all (or only reads
// it, for a write), whatever the resource: the check of a list, which the
// scope filters.
func (s *Service) checkRole(ctx context.Context, c *access.Caller, op Operation) error {
	return s.access.CheckRole(ctx, c, s.actionOf(c, op), op.Write)
}

// checkMissing answers for a record of op that does not exist (err) what an
// existing one outside c's scope would get (access.CheckMissing).
func (s *Service) checkMissing(ctx context.Context, c *access.Caller, op Operation, err error) error {
	return s.access.CheckMissing(ctx, c, s.actionOf(c, op), op.Write, err)
}

// actionOf is the action c is decided on for op (Operation.ActionFor).
func (s *Service) actionOf(c *access.Caller, op Operation) authz.Action {
	return op.ActionFor(s.access.Catalog(), c)
}

// infra checks an operation on the internal infrastructure, which no
// customer owns.
func (s *Service) infra(ctx context.Context, c *access.Caller, op Operation) error {
	return s.check(ctx, c, op, authz.Resource{})
}

// stamp returns the service's clock at the precision both databases keep.
func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

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

func (s *Service) secrets() *secrets.Sealer {
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
func (s *Service) open(sealed []byte, label secrets.Label, table string) (string, error) {
	b, err := s.secrets().Open(sealed, label)
	if err != nil {
		return "", platform.Errorf(platform.EINTERNAL, "a sealed secret of %s cannot be opened", table)
	}
	return string(b), nil
}
