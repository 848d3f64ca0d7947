// Package access authenticates the callers of the console and data APIs and
// asks the authorization core about each of their requests: it loads the
// caller's principal from the console's data (never from token claims,
// R5.7-claims), resolves the scope once per request, turns a denied decision
// into the coded error of its status, and writes denials to the audit log
// (allowed admin writes are recorded through RecordWrite, in the write's own
// transaction).
package access

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/platform/platform/internal/audit"
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
	// GrantID is the grant the request's credentials come from.
	GrantID string
	// Via is how the request's credentials were presented: a browser's
	// session cookie or a bearer token (CSRF checks follow it).
	Via Via
	// AuthTime, ACR and AMR are when and how the user signed in (the
	// access token's claims; D-step-up).
	AuthTime time.Time
	ACR      string
	AMR      []string
}

// Identity returns the credentials the caller was loaded with.
func (c *Caller) Identity() Identity {
	return Identity{UserID: c.UserID, GrantID: c.GrantID, Via: c.Via, Actor: c.Actor, AuthTime: c.AuthTime, ACR: c.ACR, AMR: c.AMR}
}

// Service loads callers and checks their requests. It is safe for
// concurrent use.
type Service struct {
	store   *store.Store
	catalog *authz.Catalog
	now     func() time.Time
	// stepUp is the demand of the dangerous actions (SetStepUp, D-step-up).
	stepUp StepUp
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

// Load returns the caller id names. The one statement behind it
// (store.Principal) also checks that the credentials still hold:
// EUNAUTHORIZED for a suspended or deleted user or a revoked grant
// (D-credentials-follow). A user without a console role who lives in a
// customer's organization is that customer's member (DefaultPortalRole);
// an internal user without one takes the first of its groups' internal
// roles; anyone else without a role is EFORBIDDEN. The roles of the user's
// groups add to its own (D-group-roles), those of its own role's kind only.
func (s *Service) Load(ctx context.Context, id Identity) (*Caller, error) {
	p, role, err := s.store.Principal(ctx, id.UserID, id.GrantID, s.now())
	if err != nil {
		return nil, err
	}
	switch {
	case role != "":
		if p.Role, err = authz.ParseRole(role); err != nil {
			return nil, errNoAccess
		}
	case p.CustomerID != "":
		p.Role = DefaultPortalRole
	case len(p.GroupRoles) > 0 && p.GroupRoles[0].Internal():
		// an internal user whose role comes from its groups only
		p.Role, p.GroupRoles = p.GroupRoles[0], p.GroupRoles[1:]
	default:
		return nil, errNoAccess
	}
	p.GroupRoles = slices.DeleteFunc(p.GroupRoles, func(r authz.Role) bool {
		return r == p.Role || r.Internal() != p.Role.Internal() // a group adds roles of the user's kind only
	})
	p.Actor = id.Actor
	return &Caller{Principal: *p, Scope: authz.ResolveScope(*p), GrantID: id.GrantID, Via: id.Via, AuthTime: id.AuthTime,
		ACR: id.ACR, AMR: id.AMR}, nil
}

var errNoAccess = platform.Errorf(platform.EFORBIDDEN, "this account has no access")

// Check asks the authorization core whether c may perform a on r (write asks
// for full access). A denial is written to the audit log and returned as the
// error of its status: EFORBIDDEN (403) or ENOTFOUND (404, when the resource
// must not show to this caller).
func (s *Service) Check(ctx context.Context, c *Caller, a authz.Action, r authz.Resource, write bool) error {
	d := s.catalog.Decide(&c.Principal, &c.Scope, a, r, write)
	if d.Allowed {
		return nil
	}
	customerID := r.CustomerID
	if d.Reason == authz.ReasonOtherCustomer {
		// audited without the other customer, whose users must not see another's caller
		customerID = ""
	}
	s.Audit(ctx, c, a.String(), resourceName(r), customerID, d)
	return decisionError(d)
}

// CheckMissing answers for a resource of action a that does not exist
// (err, from loading it, is ENOTFOUND) exactly what an existing one outside
// c's scope would get (authz.Catalog.DecideMissing), so that no caller learns
// whether an id exists (R4.6-id-scope); a 403 is audited. Any other err is
// returned as it is.
func (s *Service) CheckMissing(ctx context.Context, c *Caller, a authz.Action, write bool, err error) error {
	if platform.ErrorCode(err) != platform.ENOTFOUND {
		return err
	}
	d := s.catalog.DecideMissing(&c.Principal, &c.Scope, a, write)
	if d.Status != 404 {
		s.Audit(ctx, c, a.String(), "", "", d)
	}
	return decisionError(d)
}

// CheckRole refuses a caller whose role does not hold a at all (or only
// read for a write), whatever the resource: the answer of a list, which the
// scope filters and never refuses otherwise. The refusal is audited.
func (s *Service) CheckRole(ctx context.Context, c *Caller, a authz.Action, write bool) error {
	acc := s.catalog.AccessOf(&c.Principal, a)
	if acc == authz.AccessNone || (write && acc != authz.AccessFull) {
		return s.Check(ctx, c, a, authz.Resource{}, write)
	}
	return nil
}

// decisionError is the coded error of a denied decision.
func decisionError(d authz.Decision) error {
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

// AuditTimeout bounds the audit write of a denial. The write goes on when
// its request's context ends (the record of a refused request must not be
// lost to a client that hung up), but not without end (D-request-bounds).
const AuditTimeout = 5 * time.Second

// Audit writes the event of a denial d, which changed nothing. resource
// names what was acted on as a path ("tenants/t-1"); customerID, when set,
// lets that customer's scoped readers see the event. A failed write is
// logged, never returned: the request's answer does not depend on it.
// Allowed writes are recorded by RecordWrite, in their own transaction.
func (s *Service) Audit(ctx context.Context, c *Caller, action, resource, customerID string, d authz.Decision) {
	e := s.event(ctx, c, action, resource, customerID, d)
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AuditTimeout)
	defer cancel()
	if err := s.store.AppendAudit(wctx, e); err != nil {
		slog.ErrorContext(ctx, "audit log", "err", err, "action", action)
	}
}

// Write is an allowed administration write, as its audit event records it
// (D-audit-events).
type Write struct {
	// Action is the action of the capability matrix the write was decided
	// on; a customer's webhooks subscribe to it.
	Action authz.Action
	// Operation is the declared operation, "tenant.update".
	Operation string
	// Resource names what the write acted on as a path of kind and id,
	// "tenants/t-1".
	Resource string
	// CustomerID is the customer the resource belongs to ("" for none),
	// whose scoped readers and webhooks see the event.
	CustomerID string
}

// RecordWrite appends the audit event of w, made by c, through tx: the
// store transaction the write itself runs in, so that the write and its
// record commit together or not at all. Its error is the transaction's.
func (s *Service) RecordWrite(ctx context.Context, tx *store.Store, c *Caller, w Write) error {
	allowed := authz.Decision{Allowed: true, Status: 200, Reason: authz.ReasonAllowed}
	e := s.event(ctx, c, w.Action.String(), w.Resource, w.CustomerID, allowed)
	e.Operation = w.Operation
	return tx.AppendAudit(ctx, e)
}

// event is the one shape of an administration event: who (c, as its role
// was), what (action on resource, of customerID), the decision, and the
// request it came with (id, client address, user agent), in the schema of
// the audit trail (D-audit-trail): an allowed write is an admin.write, a
// denial an access.denied.
func (s *Service) event(ctx context.Context, c *Caller, action, resource, customerID string, d authz.Decision) *store.AuditEvent {
	target := audit.TargetOf(resource)
	ip, ua := httpapi.Source(ctx)
	e := &store.AuditEvent{ID: audit.NewID(), At: s.now(), Kind: string(audit.AdminWrite), ActorID: c.UserID, ImpersonatorID: c.Actor,
		ActorRole: c.Role.String(), CustomerID: customerID, Action: action, Resource: resource, Decision: "allowed",
		Reason: d.Reason, Status: d.Status, RequestID: httpapi.RequestID(ctx), TargetType: target.Type, TargetID: target.ID,
		SourceIP: ip, UserAgent: ua}
	if !d.Allowed {
		e.Decision, e.Kind = "denied", string(audit.AccessDenied)
	}
	if e.Status == 0 {
		e.Status = 200
	}
	return e
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
