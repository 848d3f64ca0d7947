// Package access authenticates the callers of the console and data APIs and
// asks the authorization core about each of their requests: it loads the
// caller's principal from the console's data (never from token claims,
// R5.7-claims), resolves the scope once per request, turns a denied decision
// into the coded error of its status, and writes denials and admin writes to
// the audit log.
package access

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// DefaultPortalRole is the role of a customer organization's user who has
// not been given one (for example a user created at first SSO sign-in).
const DefaultPortalRole = authz.Member

// Caller is the authenticated principal of one request and its scope.
type Caller struct {
	authz.Principal
	Scope authz.Scope
}

// Service loads callers and checks their requests. It is safe for
// concurrent use.
type Service struct {
	store   *store.Store
	catalog *authz.Catalog
	now     func() time.Time
}

// New compiles the permission catalog from the role_permissions table.
func New(ctx context.Context, st *store.Store) (*Service, error) {
	entries, err := st.RolePermissions(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := authz.NewCatalog(entries)
	if err != nil {
		return nil, err
	}
	return &Service{store: st, catalog: cat, now: time.Now}, nil
}

// Catalog returns the compiled permission catalog.
func (s *Service) Catalog() *authz.Catalog { return s.catalog }

// Load returns the caller userID is. A user without a console role who lives
// in a customer's organization is that customer's member (DefaultPortalRole);
// anyone else without a role is EFORBIDDEN.
func (s *Service) Load(ctx context.Context, userID string) (*Caller, error) {
	p, role, err := s.store.Principal(ctx, userID, s.now())
	switch {
	case platform.ErrorCode(err) == platform.ENOTFOUND:
		p, err = s.defaultPrincipal(ctx, userID)
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if p.Role, err = authz.ParseRole(role); err != nil {
			return nil, platform.Errorf(platform.EFORBIDDEN, "this account has no access")
		}
	}
	return &Caller{Principal: *p, Scope: authz.ResolveScope(*p)}, nil
}

func (s *Service) defaultPrincipal(ctx context.Context, userID string) (*authz.Principal, error) {
	noAccess := platform.Errorf(platform.EFORBIDDEN, "this account has no access")
	u, err := s.store.User(ctx, userID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, noAccess
	} else if err != nil {
		return nil, err
	}
	cust, err := s.store.CustomerByOrg(ctx, u.OrgID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, noAccess
	} else if err != nil {
		return nil, err
	}
	return &authz.Principal{UserID: userID, Role: DefaultPortalRole, CustomerID: cust.ID}, nil
}

// Check asks the authorization core whether c may perform a on r (write asks
// for full access). A denial is written to the audit log and returned as the
// error of its status: EFORBIDDEN (403) or ENOTFOUND (404, when the resource
// must not show to this caller).
func (s *Service) Check(ctx context.Context, c *Caller, a authz.Action, r authz.Resource, write bool) error {
	d := s.catalog.Decide(&c.Principal, &c.Scope, a, r, write)
	if d.Allowed {
		return nil
	}
	s.Audit(ctx, c, a.String(), resourceName(r), r.CustomerID, d)
	if d.Status == 404 {
		return platform.Errorf(platform.ENOTFOUND, "not found")
	}
	return platform.Errorf(platform.EFORBIDDEN, "not allowed: %s", d.Reason)
}

// Access returns what c holds of a on r (full, read or none), without
// auditing: for fields and menus that show what the caller may do.
func (s *Service) Access(c *Caller, a authz.Action, r authz.Resource) authz.Access {
	d := s.catalog.Decide(&c.Principal, &c.Scope, a, r, false)
	if !d.Allowed {
		return authz.AccessNone
	}
	return d.Access
}

// Audit writes one event: a denied decision, or an admin write (d allowed).
// resource names what was acted on as a path ("tenants/t-1"); customerID, when
// set, lets that customer's scoped readers see the event. A failed write is
// logged, never returned: the request's answer does not depend on it.
func (s *Service) Audit(ctx context.Context, c *Caller, action, resource, customerID string, d authz.Decision) {
	e := &store.AuditEvent{ID: newID(), At: s.now(), ActorID: c.UserID, CustomerID: customerID, Action: action,
		Resource: resource, Decision: "allowed", Reason: d.Reason, Status: d.Status, RequestID: httpapi.RequestID(ctx)}
	if !d.Allowed {
		e.Decision = "denied"
	}
	if e.Status == 0 {
		e.Status = 200
	}
	if err := s.store.AppendAudit(context.WithoutCancel(ctx), e); err != nil {
		slog.ErrorContext(ctx, "audit log", "err", err, "action", action)
	}
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// From returns the caller of ctx, or nil.
func From(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}

// resourceName names r for the audit log when the caller names nothing better.
func resourceName(r authz.Resource) string {
	switch {
	case r.InstanceID != "":
		return "instances/" + r.InstanceID
	case r.CustomerID != "":
		return "customers/" + r.CustomerID
	}
	return ""
}
