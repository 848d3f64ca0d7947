package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Grants give account managers and QA admins their customers and instances
// (SPEC 2.6). Managing them is managing internal users: platform_admin, with
// compliance_admin and reader reading.
func (a *Admin) grantRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Pattern: "/grants", Action: authz.ManageInternalUsers, Handle: a.listGrants},
		{Method: http.MethodPost, Pattern: "/grants", Action: authz.ManageInternalUsers, Write: true, Handle: a.createGrant},
		{Method: http.MethodDelete, Pattern: "/customers/{id}/grants/{userId}", Action: authz.ManageInternalUsers, Write: true,
			Target: a.customerTarget, Handle: a.deleteCustomerGrant},
		{Method: http.MethodDelete, Pattern: "/instances/{id}/grants/{userId}", Action: authz.ManageInternalUsers, Write: true,
			Target: a.instanceTarget, Handle: a.deleteInstanceGrant},
	}
}

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
	if g.GrantedBy != "" {
		by := g.GrantedBy
		v.GrantedBy = &by
	}
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
func (s *Service) ListGrants(ctx context.Context, c *access.Caller, f GrantFilter) ([]*GrantView, error) {
	if err := s.check(ctx, c, authz.ManageInternalUsers, authz.Resource{}, false); err != nil {
		return nil, err
	}
	out := []*GrantView{}
	if f.InstanceID == "" {
		gs, err := s.store.Grants(ctx, false, f.CustomerID, f.UserID)
		if err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
			return nil, err
		}
		for _, g := range gs {
			out = append(out, newGrant(g, false))
		}
	}
	if f.CustomerID == "" {
		gs, err := s.store.Grants(ctx, true, f.InstanceID, f.UserID)
		if err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
			return nil, err
		}
		for _, g := range gs {
			out = append(out, newGrant(g, true))
		}
	}
	return out, nil
}

// GrantsByCustomerIDs returns each customer's grants, in key order (a
// dataloader batch); callers that may not read grants get EFORBIDDEN.
func (s *Service) GrantsByCustomerIDs(ctx context.Context, c *access.Caller, ids []string) ([][]*GrantView, error) {
	if err := s.access.CheckRole(ctx, c, authz.ManageInternalUsers, false); err != nil {
		return nil, err
	}
	gs, err := s.store.GrantsByCustomerIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	by := map[string][]*GrantView{}
	for _, g := range gs {
		by[g.TargetID] = append(by[g.TargetID], newGrant(g, false))
	}
	out := make([][]*GrantView, len(ids))
	for i, id := range ids {
		out[i] = by[id]
	}
	return out, nil
}

// CreateGrant grants an internal user a customer or an instance. EINVALID
// when both or neither are named, when the user is not an internal user, or
// when the customer or instance does not exist; granting twice keeps the
// first grant.
func (s *Service) CreateGrant(ctx context.Context, c *access.Caller, in GrantInput) (*GrantView, error) {
	if err := s.check(ctx, c, authz.ManageInternalUsers, authz.Resource{}, true); err != nil {
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
		GrantedAt: s.now().UTC().Truncate(time.Microsecond)}
	if instance {
		g.TargetID = in.InstanceID
	}
	if err := s.store.PutGrant(ctx, instance, g); platform.ErrorCode(err) == platform.ENOTFOUND {
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
func (s *Service) DeleteGrant(ctx context.Context, c *access.Caller, instance bool, targetID, userID string) error {
	if err := s.check(ctx, c, authz.ManageInternalUsers, authz.Resource{}, true); err != nil {
		return err
	}
	return s.store.DeleteGrant(ctx, instance, userID, targetID)
}

// ---- handlers ----

func (a *Admin) listGrants(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	q := r.URL.Query()
	out, err := a.svc.ListGrants(r.Context(), c, GrantFilter{UserID: q.Get("userId"), CustomerID: q.Get("customerId"),
		InstanceID: q.Get("instanceId")})
	return http.StatusOK, map[string]any{"items": out}, err
}

func (a *Admin) createGrant(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in GrantInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	out, err := a.svc.CreateGrant(r.Context(), c, in)
	return http.StatusCreated, out, err
}

func (a *Admin) deleteCustomerGrant(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return http.StatusNoContent, nil, a.svc.DeleteGrant(r.Context(), c, false, id(r), chi.URLParam(r, "userId"))
}

func (a *Admin) deleteInstanceGrant(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return http.StatusNoContent, nil, a.svc.DeleteGrant(r.Context(), c, true, id(r), chi.URLParam(r, "userId"))
}
