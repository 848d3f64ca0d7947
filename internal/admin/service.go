package admin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
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
// through access.Service.Check itself (DESIGN 4: the services check again,
// so no transport can skip it) and returns coded errors: EINVALID for bad
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

// PageInput asks for one page of a list: at most Limit items (1 to 1000,
// default 50) after Cursor, the nextCursor of the previous page.
type PageInput struct {
	Limit  int
	Cursor string
}

// MaxPageLimit is the largest page a list answers.
const MaxPageLimit = store.MaxPageLimit

// Page is one page of a list. NextCursor is nil on the last page.
type Page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func newPage[T any](items []T, next string) *Page[T] {
	p := &Page[T]{Items: items}
	if p.Items == nil {
		p.Items = []T{}
	}
	if next != "" {
		p.NextCursor = &next
	}
	return p
}

func (p PageInput) query() (store.PageQuery, error) {
	if p.Limit < 0 || p.Limit > store.MaxPageLimit {
		return store.PageQuery{}, platform.Errorf(platform.EINVALID, "limit must be between 1 and %d", store.MaxPageLimit)
	}
	if p.Cursor != "" {
		if _, _, err := store.DecodeCursor(p.Cursor); err != nil {
			return store.PageQuery{}, err
		}
	}
	return store.PageQuery{Limit: p.Limit, Cursor: p.Cursor}, nil
}

// check asks the access service (which audits a denial).
func (s *Service) check(ctx context.Context, c *access.Caller, act authz.Action, res authz.Resource, write bool) error {
	return s.access.Check(ctx, c, act, res, write)
}

func newID() string { return uuid.NewString() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// maxSettings bounds a settings document.
const maxSettings = 64 << 10

// validSettings checks that a settings document is one JSON object.
func validSettings(raw json.RawMessage) error {
	if len(raw) > maxSettings {
		return platform.Errorf(platform.EINVALID, "settings must be at most %d bytes", maxSettings)
	}
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return platform.Errorf(platform.EINVALID, "settings must be a JSON object")
	}
	return nil
}

// cleanName validates a display name: 1 to 200 characters after trimming.
func cleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len([]rune(s)) > 200 {
		return "", platform.Errorf(platform.EINVALID, "%s is required (at most 200 characters)", field)
	}
	return s, nil
}
