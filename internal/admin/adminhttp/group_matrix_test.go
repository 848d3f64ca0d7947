package adminhttp

import (
	"testing"

	"github.com/platform/platform/internal/authz"
)

// newGroupWorld is newWorld for a caller whose role comes from a group:
// a customer's user without a role of its own (a member) in a group of its
// customer bound to role, or an internal user without a console role in an
// internal group bound to role, whose customer (and instance) grants are
// the group's, not its own.
func newGroupWorld(e *env, role authz.Role, scope string) *World {
	w := &World{env: e, Role: role, Scope: scope, viaGroup: true}
	w.Home, w.Other = e.mustCustomer(), e.mustCustomer()
	w.HomeInstance, w.HomeInstance2, w.OtherInstance = e.mustInstance(w.Home), e.mustInstance(w.Home), e.mustInstance(w.Other)
	var g string
	if role.Portal() {
		w.Caller, g = e.mustUser(0, w.Home), e.mustGroup(w.Home, role.String())
	} else {
		w.Caller, g = e.mustUser(0, ""), e.mustGroup("", role.String())
	}
	e.mustGroupMember(false, g, w.Caller)
	if role.Scoped() {
		e.mustGroupGrant(g, false, w.Home)
		if role.InstanceScoped() {
			e.mustGroupGrant(g, true, w.HomeInstance)
		}
	}
	if scope == scopeFocusIn || scope == scopeFocusOut {
		e.mustFocus(w.Caller, w.Home)
	}
	switch scope {
	case scopeOut, scopeFocusOut, scopeOther:
		w.CustomerID, w.InstanceID = w.Other, w.OtherInstance
	case scopeInstanceOut:
		w.CustomerID, w.InstanceID = w.Home, w.HomeInstance2
	default:
		w.CustomerID, w.InstanceID = w.Home, w.HomeInstance
	}
	return w
}

// TestCapabilityMatrixThroughGroups is TestCapabilityMatrix for callers
// whose role is bound to one of their groups and whose customers and
// instances, for account_manager and qa_admin, are granted to the group:
// every route answers as the matrix says for the role, in every scope
// situation (owner aside: no group binds it). A customer's user keeps its
// default member role beside the group's, which holds nothing on these
// routes that the bound roles lack.
//
// spec: R5.7-matrix, R5.7-strict, R5.7-soft, R5.7-and, R2.6-resolver
func TestCapabilityMatrixThroughGroups(t *testing.T) {
	t.Parallel()
	exp := loadExpectations(t)
	routes := loadRoutes(t)
	for _, role := range authz.Roles() {
		if role == authz.Owner {
			continue
		}
		t.Run(role.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			for _, scope := range scopesOf(role) {
				w := newGroupWorld(e, role, scope)
				for _, rt := range routes {
					checkCapability(t, e, exp, w, rt)
				}
			}
		})
	}
}
