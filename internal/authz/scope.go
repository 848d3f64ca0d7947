package authz

import (
	"fmt"
	"slices"
)

// Principal is the caller as the console's own data knows it, loaded once per
// request (roles are never taken from token claims).
type Principal struct {
	UserID string
	Role   Role
	// CustomerID is the home customer of a portal user; empty for internal users.
	CustomerID string
	// CustomerGrants and InstanceGrants are the ids granted to the user (R2.6-resolver).
	CustomerGrants []string
	InstanceGrants []string
	// FocusCustomerID is the customer of focus mode, a temporary one-customer
	// lens an internal user turns on; empty when off.
	FocusCustomerID string
	// GroupRoles are the roles bound to the user's groups besides Role
	// (D-group-roles): of Role's kind (portal or internal), never owner,
	// without Role itself. The user holds, for each action, the most any of
	// Role and GroupRoles holds (Catalog.AccessOf).
	GroupRoles []Role
	// Actor is who acts as the user: an impersonation's support user or a
	// delegation's service account (the access token's act claim); ""
	// when the user acts itself. Such a principal holds no action
	// ActorForbidden names, whatever its role (D-impersonation).
	Actor string
}

// roles calls fn on Role, then on each of GroupRoles.
func (p *Principal) roles(fn func(Role)) {
	fn(p.Role)
	for _, r := range p.GroupRoles {
		fn(r)
	}
}

// Scoped reports whether any of the principal's roles is scoped by grants:
// then its one scope is the grants' (D-group-roles), whatever the other
// roles, so that no role lends another an unscoped reach.
func (p *Principal) Scoped() bool {
	scoped := false
	p.roles(func(r Role) { scoped = scoped || r.Scoped() })
	return scoped
}

// InstanceScoped reports whether any of the principal's roles is also
// scoped by instance grants.
func (p *Principal) InstanceScoped() bool {
	scoped := false
	p.roles(func(r Role) { scoped = scoped || r.InstanceScoped() })
	return scoped
}

// Mode is how a scope answers an id outside it.
type Mode uint8

// Scope modes.
const (
	// Unscoped: no customer restriction (platform_admin and the other
	// unscoped internal roles without focus mode).
	Unscoped Mode = iota
	// Strict: grants of account_manager and qa_admin; an id outside answers 403 (R5.7-strict).
	Strict
	// Soft: focus mode, alone or intersected with grants; an id outside answers 404 (R5.7-soft).
	Soft
	// Own: a portal user's home customer; another customer's id answers 404,
	// so a customer user cannot learn that another customer's resource exists.
	Own
)

var modeNames = [...]string{Unscoped: "unscoped", Strict: "strict", Soft: "soft", Own: "own"}

// String returns unscoped, strict, soft or own.
func (m Mode) String() string {
	if int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", uint8(m))
	}
	return modeNames[m]
}

// MarshalText encodes the mode as its name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Scope sources (R2.6-source). An empty Source means unscoped, or a portal
// user's own customer, which comes from no grant.
const (
	SourceAccountManager = "account_manager" // the user's own grants
	SourceFocusMode      = "focus_mode"      // focus mode of an unscoped internal role
	SourceIntersection   = "intersection"    // focus mode of a scoped role: grants ∩ focus
	// Reserved for partner spaces and groups; nothing resolves to them yet.
	SourceGroupMembership = "group_membership"
	SourceSpaceGrant      = "space_grant"
)

// Scope is the customer (and for qa_admin, instance) scope of one request.
// CustomerIDs and InstanceIDs are sorted and free of duplicates; Decide
// searches them, so build a Scope with ResolveScope. Lists are filtered with
// the same ids in SQL (Filter).
type Scope struct {
	Source      string
	CustomerIDs []string
	InstanceIDs []string
	// InstanceScoped: the instance axis applies (qa_admin), ANDed with the
	// customer axis (R5.7-and); InstanceIDs may then be empty (no instance).
	InstanceScoped bool
	Mode           Mode
}

// ResolveScope returns the scope of p:
//   - account_manager: Source account_manager, Strict, its customer grants
//     (the user's own and its groups', D-group-grants);
//   - qa_admin: Source account_manager (its direct grants, as for an account
//     manager), Strict, its customer grants and its instance grants, which
//     Decide combines with AND;
//   - platform_admin, infra_ops, finance_admin, compliance_admin, reader:
//     unscoped (the zero Scope);
//   - focus mode on an unscoped internal role: Source focus_mode, Soft, the focus customer;
//   - focus mode on a scoped role: Source intersection, Soft, its customer
//     grants ∩ {focus customer} (possibly none), instance grants unchanged;
//   - portal roles: Mode Own, their home customer; focus mode does not apply.
//
// The role is the principal's: any of Role and GroupRoles that is scoped
// makes the scope the grants' (Principal.Scoped).
// A scoped role with no grants gets an empty Strict scope, which allows no
// customer: only the Mode tells unscoped from scoped.
func ResolveScope(p Principal) Scope {
	switch {
	case p.Role.Portal():
		var ids []string
		if p.CustomerID != "" {
			ids = []string{p.CustomerID}
		}
		return Scope{CustomerIDs: ids, Mode: Own}
	case p.Scoped():
		sc := Scope{Source: SourceAccountManager, CustomerIDs: sortedSet(p.CustomerGrants), Mode: Strict}
		if p.InstanceScoped() {
			sc.InstanceIDs, sc.InstanceScoped = sortedSet(p.InstanceGrants), true
		}
		if p.FocusCustomerID != "" {
			sc.Source, sc.Mode = SourceIntersection, Soft
			if sc.HasCustomer(p.FocusCustomerID) {
				sc.CustomerIDs = []string{p.FocusCustomerID}
			} else {
				sc.CustomerIDs = nil
			}
		}
		return sc
	case p.Role.Internal() && p.FocusCustomerID != "":
		return Scope{Source: SourceFocusMode, CustomerIDs: []string{p.FocusCustomerID}, Mode: Soft}
	}
	return Scope{}
}

// Allows reports whether the scope lets through a resource of customerID
// on instanceID ("" when it is on no instance): every resource when
// unscoped; otherwise one of the scope's customers and, when the instance
// axis applies, on one of its instances or on none (R5.7-and). It is the
// row rule Filter states for SQL; Decide adds the 403/404 of the mode.
func (s *Scope) Allows(customerID, instanceID string) bool {
	if s.Mode == Unscoped {
		return true
	}
	if !s.HasCustomer(customerID) {
		return false
	}
	return !s.InstanceScoped || instanceID == "" || s.HasInstance(instanceID)
}

// Filter is a scope as the condition of a listing, which the store renders
// in SQL (one function, store.scopeCondition): every row when All;
// otherwise rows of CustomerIDs (none when empty) and, with
// InstanceScoped, rows on one of InstanceIDs or on no instance. The zero
// Filter lets nothing through.
type Filter struct {
	All            bool
	CustomerIDs    []string
	InstanceScoped bool
	InstanceIDs    []string
}

// Filter returns the scope as a listing condition: rows exactly where
// Allows is true.
func (s *Scope) Filter() Filter {
	if s.Mode == Unscoped {
		return Filter{All: true}
	}
	return Filter{CustomerIDs: s.CustomerIDs, InstanceScoped: s.InstanceScoped, InstanceIDs: s.InstanceIDs}
}

// Empty reports whether f can let no row through.
func (f Filter) Empty() bool { return !f.All && len(f.CustomerIDs) == 0 }

// MayFocus reports whether p may turn focus mode on for customerID: an
// internal role may; a scoped one only on a customer it is granted
// (whatever lens it is looking through now); a portal role never.
func (p *Principal) MayFocus(customerID string) bool {
	switch {
	case !p.Role.Internal() || customerID == "":
		return false
	case p.Scoped():
		return slices.Contains(p.CustomerGrants, customerID)
	}
	return true
}

// HasCustomer reports whether id is one of the scope's customers (it does not
// look at Mode: an unscoped scope has none).
func (s *Scope) HasCustomer(id string) bool {
	_, ok := slices.BinarySearch(s.CustomerIDs, id)
	return ok
}

// HasInstance reports whether id is one of the scope's instances.
func (s *Scope) HasInstance(id string) bool {
	_, ok := slices.BinarySearch(s.InstanceIDs, id)
	return ok
}

// sortedSet returns a sorted copy of ids without duplicates or empty ids.
func sortedSet(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	if !slices.IsSorted(out) { // the store lists grants in order; sort only when it did not
		slices.Sort(out)
	}
	return slices.Compact(out)
}
