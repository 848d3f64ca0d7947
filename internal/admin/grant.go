package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// grants manages internal users' customer and instance grants.
type grants struct{ *core }

// GrantView is a customer grant or an instance grant (R2.6-grant-key,
// R2.6-instance-grant): exactly one of customerId and instanceId is set.
type GrantView struct {
	GranteeType string    `json:"granteeType"`
	GranteeID   string    `json:"granteeId"`
	CustomerID  *string   `json:"customerId,omitempty"`
	InstanceID  *string   `json:"instanceId,omitempty"`
	GrantedBy   *string   `json:"grantedBy"`
	GrantedAt   time.Time `json:"grantedAt"`
}

func newGrant(g store.Grant, instance bool) *GrantView {
	v := &GrantView{GranteeType: g.GranteeType, GranteeID: g.GranteeID, GrantedAt: g.GrantedAt}
	t := g.TargetID
	if instance {
		v.InstanceID = &t
	} else {
		v.CustomerID = &t
	}
	v.GrantedBy = orNull(g.GrantedBy)
	return v
}

// GrantInput grants an internal user a customer or an instance (one of the two).
type GrantInput struct {
	UserID     string `json:"userId"`
	CustomerID string `json:"customerId,omitempty"`
	InstanceID string `json:"instanceId,omitempty"`
}

// GrantFilter narrows a grant list; empty fields match everything.
type GrantFilter struct {
	UserID     string
	CustomerID string
	InstanceID string
}

// ListGrants lists customer grants, then instance grants, matching f. A
// filter on a customer lists no instance grants and the reverse.
func (s *grants) ListGrants(ctx context.Context, c *access.Caller, f GrantFilter) ([]*GrantView, error) {
	if err := s.infra(ctx, c, OpGrantList); err != nil {
		return nil, err
	}
	out := []*GrantView{}
	for _, instance := range []bool{false, true} {
		target, other := f.CustomerID, f.InstanceID
		if instance {
			target, other = f.InstanceID, f.CustomerID
		}
		if other != "" {
			continue
		}
		gs, err := s.store.Grants(ctx, instance, target, f.UserID)
		if err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
			return nil, err
		}
		for _, g := range gs {
			out = append(out, newGrant(g, instance))
		}
	}
	return out, nil
}

// GrantsByCustomerIDs returns each customer's grants, in key order (a
// dataloader batch); callers that may not read grants get EFORBIDDEN.
func (s *grants) GrantsByCustomerIDs(ctx context.Context, c *access.Caller, ids []string) ([][]*GrantView, error) {
	if err := s.checkRole(ctx, c, OpGrantList); err != nil {
		return nil, err
	}
	gs, err := s.store.GrantsByCustomerIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	return grantsOf(ids, gs), nil
}

// grantsOf is the grants of each customer of ids, in key order.
func grantsOf(ids []string, gs []store.Grant) [][]*GrantView {
	by := map[string][]*GrantView{}
	for _, g := range gs {
		by[g.TargetID] = append(by[g.TargetID], newGrant(g, false))
	}
	out := make([][]*GrantView, len(ids))
	for i, id := range ids {
		out[i] = by[id]
	}
	return out
}

// CreateGrant grants an internal user a customer or an instance. EINVALID
// when both or neither are named, when the user is not an internal user, or
// when the customer or instance does not exist; granting twice keeps the
// first grant.
func (s *grants) CreateGrant(ctx context.Context, c *access.Caller, in GrantInput) (*GrantView, error) {
	if err := s.infra(ctx, c, OpGrantCreate); err != nil {
		return nil, err
	}
	if (in.CustomerID == "") == (in.InstanceID == "") {
		return nil, platform.Errorf(platform.EINVALID, "name exactly one of customerId and instanceId")
	}
	if _, err := s.store.InternalUser(ctx, in.UserID); platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, platform.Errorf(platform.EINVALID, "userId must name an internal user")
	} else if err != nil {
		return nil, err
	}
	instance := in.InstanceID != ""
	g := &store.Grant{GranteeType: store.GranteeUser, GranteeID: in.UserID, TargetID: in.CustomerID, GrantedBy: c.UserID,
		GrantedAt: s.stamp()}
	if instance {
		g.TargetID = in.InstanceID
	}
	what, err := s.grantActed(ctx, instance, g.TargetID, g.GranteeID)
	if err == nil {
		err = s.audited(ctx, c, OpGrantCreate, what, func(tx *store.Store) error { return tx.PutGrant(ctx, instance, g) })
	}
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		if instance {
			return nil, platform.Errorf(platform.EINVALID, "instanceId must name an existing instance")
		}
		return nil, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
	} else if err != nil {
		return nil, err
	}
	stored, err := s.store.Grants(ctx, instance, g.TargetID, g.GranteeID)
	if err != nil || len(stored) == 0 {
		return nil, err
	}
	return newGrant(stored[0], instance), nil
}

// DeleteGrant removes a user's customer grant (instance false) or instance
// grant. ENOTFOUND when there was none.
func (s *grants) DeleteGrant(ctx context.Context, c *access.Caller, instance bool, targetID, userID string) error {
	op := OpGrantDeleteCustomer
	if instance {
		op = OpGrantDeleteInstance
	}
	if err := s.infra(ctx, c, op); err != nil {
		return err
	}
	what, err := s.grantActed(ctx, instance, targetID, userID)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, op, what, func(tx *store.Store) error { return tx.DeleteGrant(ctx, instance, userID, targetID) })
}

// grantActed names a grant of userID on a customer or an instance
// (targetID) for its audit event, which its customer sees. ENOTFOUND when
// the instance does not exist.
func (s *grants) grantActed(ctx context.Context, instance bool, targetID, userID string) (acted, error) {
	if !instance {
		return on(targetID, "customers", targetID, "grants", userID), nil
	}
	i, err := s.store.InstanceRow(ctx, targetID)
	if err != nil {
		return acted{}, err
	}
	return on(i.CustomerID, "instances", targetID, "grants", userID), nil
}
