package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// GroupGrantInput grants an internal group a customer or an instance (one
// of the two): its members hold the grant while they are members
// (D-group-grants).
type GroupGrantInput struct {
	CustomerID string `json:"customerId,omitempty"`
	InstanceID string `json:"instanceId,omitempty"`
}

// GroupGrants lists an internal group's customer grants, then its instance
// grants (at most the customers and instances there are).
func (s *groups) GroupGrants(ctx context.Context, c *access.Caller, id string) ([]*GrantView, error) {
	if _, err := s.groupFor(ctx, c, true, id, OpInternalGroupGrants); err != nil {
		return nil, err
	}
	out := []*GrantView{}
	for _, instance := range []bool{false, true} {
		gs, err := s.store.GroupGrants(ctx, instance, id)
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			out = append(out, newGrant(g, instance))
		}
	}
	return out, nil
}

// grantTarget is the resource a group grant reaches: the customer, or the
// instance and its customer. EINVALID when both or neither are named or the
// target does not exist.
func (s *groups) grantTarget(ctx context.Context, in GroupGrantInput) (authz.Resource, bool, error) {
	if (in.CustomerID == "") == (in.InstanceID == "") {
		return authz.Resource{}, false, platform.Errorf(platform.EINVALID, "name exactly one of customerId and instanceId")
	}
	if in.InstanceID != "" {
		inst, err := s.store.InstanceRow(ctx, in.InstanceID)
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return authz.Resource{}, false, platform.Errorf(platform.EINVALID, "instanceId must name an existing instance")
		}
		return authz.Resource{CustomerID: inst.CustomerID, InstanceID: inst.ID}, true, err
	}
	if _, err := s.store.Customer(ctx, in.CustomerID); platform.ErrorCode(err) == platform.ENOTFOUND {
		return authz.Resource{}, false, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
	} else if err != nil {
		return authz.Resource{}, false, err
	}
	return authz.Resource{CustomerID: in.CustomerID}, false, nil
}

// CreateGroupGrant grants an internal group a customer or an instance.
// The customer (and instance) must be within the granter's own reach: the
// operation is decided on it as on any resource of that customer, so a
// granter looking through focus mode grants only the focused customer
// (404 otherwise). Granting twice keeps the first grant.
func (s *groups) CreateGroupGrant(ctx context.Context, c *access.Caller, id string, in GroupGrantInput) (*GrantView, error) {
	if _, err := s.groupFor(ctx, c, true, id, OpInternalGroupGrantCreate); err != nil {
		return nil, err
	}
	res, instance, err := s.grantTarget(ctx, in)
	if err != nil {
		return nil, err
	}
	if err := s.check(ctx, c, OpInternalGroupGrantCreate, res); err != nil {
		return nil, err
	}
	g := &store.Grant{GranteeType: store.GranteeGroup, GranteeID: id, TargetID: res.CustomerID, GrantedBy: c.UserID, GrantedAt: s.stamp()}
	if instance {
		g.TargetID = res.InstanceID
	}
	err = s.audited(ctx, c, OpInternalGroupGrantCreate, on(res.CustomerID, "groups", id, "grants", g.TargetID), func(tx *store.Store) error {
		return tx.PutGrant(ctx, instance, g)
	})
	if err != nil {
		return nil, err
	}
	return newGrant(*g, instance), nil
}

// DeleteGroupGrant removes an internal group's grant of a customer or an
// instance, decided on that customer as granting is. ENOTFOUND when the
// group has no such grant.
func (s *groups) DeleteGroupGrant(ctx context.Context, c *access.Caller, id string, in GroupGrantInput) error {
	if _, err := s.groupFor(ctx, c, true, id, OpInternalGroupGrantDelete); err != nil {
		return err
	}
	res, instance, err := s.grantTarget(ctx, in)
	if platform.ErrorCode(err) == platform.EINVALID && (in.CustomerID == "") != (in.InstanceID == "") {
		return platform.Errorf(platform.ENOTFOUND, "grant not found")
	} else if err != nil {
		return err
	}
	if err := s.check(ctx, c, OpInternalGroupGrantDelete, res); err != nil {
		return err
	}
	target := res.CustomerID
	if instance {
		target = res.InstanceID
	}
	return s.audited(ctx, c, OpInternalGroupGrantDelete, on(res.CustomerID, "groups", id, "grants", target), func(tx *store.Store) error {
		return tx.DeleteGroupGrant(ctx, instance, id, target)
	})
}
