package authz

// Resource is what a request acts on. Empty fields name no specific resource
// (a list, which the service filters by scope in SQL, or a create that names
// no customer). Set CustomerID whenever the resource belongs to a customer,
// and InstanceID whenever it belongs to an instance.
type Resource struct {
	CustomerID string
	InstanceID string
	// Owner marks the resource as the owner account of its customer, for
	// a request that suspends, reactivates or deletes it: only
	// platform_admin may (D-owner-protect).
	Owner bool
}

// Decision is the answer of Decide. Status is 200 when allowed, 403 when
// forbidden, 404 when the resource is outside a soft or own-customer scope
// (its existence must not show). Reason is one of the Reason constants.
type Decision struct {
	Allowed bool
	Access  Access
	Status  int
	Reason  string
}

// Reasons carried by a Decision; constant strings, for logs and the audit log.
const (
	ReasonAllowed            = "allowed"
	ReasonNoPrincipal        = "no principal"
	ReasonNoCatalog          = "no catalog"
	ReasonUnknownRole        = "unknown role"
	ReasonUnknownAction      = "unknown action"
	ReasonAdminOnly          = "platform_admin only"
	ReasonOwnerTransfer      = "ownership transfer needs the customer's owner or platform_admin"
	ReasonInfra              = "internal-infrastructure action"
	ReasonPortalTenant       = "customer roles cannot create, delete or transfer tenants"
	ReasonNoAccess           = "role does not hold the action"
	ReasonReadOnly           = "role holds the action read only"
	ReasonNoHomeCustomer     = "customer user without a home customer"
	ReasonOtherCustomer      = "resource of another customer"
	ReasonNeedsCustomer      = "action needs a customer"
	ReasonNoScope            = "scope not resolved"
	ReasonCustomerOutOfScope = "customer outside scope"
	ReasonInstanceOutOfScope = "instance outside scope"
	ReasonCustomerOnly       = "only the customer's own users may"
	ReasonOwnerProtected     = "only platform_admin may suspend or delete a customer's owner"
	ReasonMissing            = "resource does not exist"
	ReasonImpersonating      = "not while acting for another user"
	ReasonSupportOnly        = "only support staff may"
)

const (
	statusOK        = 200
	statusForbidden = 403
	statusNotFound  = 404
)

// Decide says whether p may perform action a on r; write asks for full access,
// otherwise read access is enough. sc is ResolveScope(*p), resolved once per
// request. In order:
//  0. a principal acting for another user (Principal.Actor: impersonation,
//     delegation) holds no action ActorForbidden names (D-impersonation);
//  1. the rules no catalog can change: the platform_admin-only actions
//     (R5.7-never), ownership transfer for owner and platform_admin only
//     (R4.6-owner-transfer), no internal-infrastructure action for portal or
//     scoped roles (R5.7-no-infra, R4.6-infra, R5.7-am), no tenant
//     create/delete/transfer for portal roles (R5.7-no-tenant): 403;
//  2. the catalog: no access, or read access for a write: 403;
//  3. scope: a portal user only on its home customer (404 otherwise); a scoped
//     role needs a resolved scope (403 without); a customer, or for qa_admin an
//     instance, outside the scope answers 403 when Strict and 404 when Soft
//     (R5.7-strict, R5.7-soft, R5.7-and, R7.2-status);
//  4. the customer's owner account: only platform_admin (D-owner-protect), 403.
//
// A role the action is closed to gets 403 whatever the resource, so the
// answer never depends on whether a resource exists. Decide does not allocate.
func (c *Catalog) Decide(p *Principal, sc *Scope, a Action, r Resource, write bool) Decision {
	role, access, denied, ok := c.roleAccess(p, a, write)
	if !ok {
		return denied
	}

	if role.Portal() {
		switch {
		case p.CustomerID == "":
			return deny(statusForbidden, ReasonNoHomeCustomer)
		case r.CustomerID == "" && actions[a].needsCustomer:
			return deny(statusForbidden, ReasonNeedsCustomer)
		case r.CustomerID != "" && r.CustomerID != p.CustomerID:
			return deny(statusNotFound, ReasonOtherCustomer)
		}
		return owner(role, r, access)
	}
	if sc == nil || sc.Mode == Unscoped {
		if p.Scoped() {
			return deny(statusForbidden, ReasonNoScope)
		}
		return owner(role, r, access)
	}
	outside := statusNotFound
	if sc.Mode == Strict {
		outside = statusForbidden
	}
	switch {
	case r.CustomerID == "" && actions[a].needsCustomer && sc.Mode == Strict:
		return deny(statusForbidden, ReasonNeedsCustomer)
	case r.CustomerID != "" && !sc.HasCustomer(r.CustomerID):
		return deny(outside, ReasonCustomerOutOfScope)
	case r.InstanceID != "" && sc.InstanceScoped && !sc.HasInstance(r.InstanceID):
		return deny(outside, ReasonInstanceOutOfScope)
	}
	return owner(role, r, access)
}

// roleAccess is the first steps of Decide and DecideMissing: the principal,
// the catalog, the role and the action are known, the action is not closed
// to the role, and the role's access to it allows the call (a write needs
// full access). Of the principal's roles (its own, then its groups',
// D-group-roles) it takes the one that holds the most of a, its own on a
// tie, and returns it with that access; or the denial of the principal's
// own role and false when none allows the call.
func (c *Catalog) roleAccess(p *Principal, a Action, write bool) (Role, Access, Decision, bool) {
	switch {
	case p == nil:
		return 0, AccessNone, deny(statusForbidden, ReasonNoPrincipal), false
	case c == nil:
		return 0, AccessNone, deny(statusForbidden, ReasonNoCatalog), false
	case !p.Role.valid():
		return 0, AccessNone, deny(statusForbidden, ReasonUnknownRole), false
	case !a.valid():
		return 0, AccessNone, deny(statusForbidden, ReasonUnknownAction), false
	case p.Actor != "" && ActorForbidden(a):
		return 0, AccessNone, deny(statusForbidden, ReasonImpersonating), false
	}
	role, access := p.Role, AccessNone
	for _, r := range p.GroupRoles {
		if x := c.roleHolds(r, a); x > access && x > c.roleHolds(p.Role, a) {
			role, access = r, x
		}
	}
	if role == p.Role {
		if reason := forbidden(p.Role, a); reason != "" {
			return 0, AccessNone, deny(statusForbidden, reason), false
		}
		access = c.access[p.Role][a]
	}
	switch {
	case access == AccessNone:
		return 0, access, deny(statusForbidden, ReasonNoAccess), false
	case write && access != AccessFull:
		return 0, access, deny(statusForbidden, ReasonReadOnly), false
	default:
		return role, access, Decision{}, true
	}
}

// roleHolds is what role r holds of a: none when a is closed to r (or r is
// not a role), its catalog access otherwise.
func (c *Catalog) roleHolds(r Role, a Action) Access {
	if !r.valid() || forbidden(r, a) != "" {
		return AccessNone
	}
	return c.access[r][a]
}

// owner is the last step of Decide, once the scope holds the resource (so
// that a caller outside it never learns who the owner is).
func owner(role Role, r Resource, access Access) Decision {
	if r.Owner && role != PlatformAdmin {
		return deny(statusForbidden, ReasonOwnerProtected)
	}
	return allow(access)
}

// DecideMissing is the answer for a resource that does not exist: exactly
// what the caller would get for an existing one outside its scope, so that
// no caller learns whether an id exists (R4.6-id-scope). A role the action
// is closed to gets its 403 (as for any id); a strict scope answers 403; every
// other caller 404 (ReasonMissing). It never allows.
func (c *Catalog) DecideMissing(p *Principal, sc *Scope, a Action, write bool) Decision {
	if _, _, denied, ok := c.roleAccess(p, a, write); !ok {
		return denied
	}
	switch {
	case p.Role.Portal():
		return deny(statusNotFound, ReasonMissing)
	case sc != nil && sc.Mode == Strict:
		return deny(statusForbidden, ReasonCustomerOutOfScope)
	case p.Scoped() && (sc == nil || sc.Mode == Unscoped):
		return deny(statusForbidden, ReasonNoScope)
	}
	return deny(statusNotFound, ReasonMissing)
}

func allow(x Access) Decision {
	return Decision{Allowed: true, Access: x, Status: statusOK, Reason: ReasonAllowed}
}

func deny(status int, reason string) Decision {
	return Decision{Status: status, Reason: reason}
}

// ActorForbidden reports whether a is closed to a principal acting for
// another user (an impersonation or a delegation, Principal.Actor),
// whatever its role (D-impersonation): every internal-infrastructure
// action (the database URI, environment and releases, system workers,
// instances, internal users, …), the platform_admin-only ones, the
// owner's (ownership transfer, deleting the customer) and trusting an
// identity provider, and impersonation itself (no chains; the customer's
// decision on it).
func ActorForbidden(a Action) bool {
	if !a.valid() {
		return true
	}
	info := &actions[a]
	return info.infra || info.adminOnly || a == TransferOwnership || a == DeleteCustomer || a == ImpersonateUser ||
		a == AllowImpersonation
}
