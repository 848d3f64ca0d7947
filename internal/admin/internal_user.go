package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// InternalUser is a user of the administrator organization with an internal role.
type InternalUser struct {
	ID          string     `json:"id"`
	Email       string     `json:"email"`
	Name        string     `json:"name"`
	Role        string     `json:"role"`
	SuspendedAt *time.Time `json:"suspendedAt"`
	CreatedAt   time.Time  `json:"createdAt"`
}

func newInternalUser(u *store.InternalUser) *InternalUser {
	v := &InternalUser{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, SuspendedAt: timeOrNull(u.SuspendedAt),
		CreatedAt: u.CreatedAt}
	if r, err := authz.ParseRole(u.Role); err == nil {
		v.Role = r.String() // a stored ops_engineer shows as infra_ops
	}
	return v
}

// InternalUserInput creates an internal user in the administrator organization.
type InternalUserInput struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role"`
}

// InternalUserPatch changes an internal user; nil fields stay.
type InternalUserPatch struct {
	Name *string `json:"name,omitempty"`
	Role *string `json:"role,omitempty"`
}

// internalRole parses an internal role name; ops_engineer is read as
// infra_ops (R5.7-roles). EINVALID for anything else.
func internalRole(s string) (authz.Role, error) {
	r, err := authz.ParseRole(s)
	if err != nil || !r.Internal() {
		return 0, platform.Errorf(platform.EINVALID, "role %q is not an internal role (platform_admin, account_manager, "+
			"qa_admin, infra_ops, finance_admin, compliance_admin, reader)", s)
	}
	return r, nil
}

// ListInternalUsers lists internal users (platform_admin; compliance_admin and reader read).
func (s *Service) ListInternalUsers(ctx context.Context, c *access.Caller, p PageInput) (*Page[*InternalUser], error) {
	if err := s.check(ctx, c, OpInternalUserList, authz.Resource{}); err != nil {
		return nil, err
	}
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	rows, next, err := s.store.ListInternalUsers(ctx, p)
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, newInternalUser), next), nil
}

// internalUserFor checks op, which no customer's scope limits, and loads
// the internal user id.
func (s *Service) internalUserFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.InternalUser, error) {
	if err := s.check(ctx, c, op, authz.Resource{}); err != nil {
		return nil, err
	}
	return s.store.InternalUser(ctx, id)
}

// InternalUser returns one internal user.
func (s *Service) InternalUser(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	return viewing(newInternalUser)(s.internalUserFor(ctx, c, id, OpInternalUserGet))
}

// CreateInternalUser creates a user in the administrator organization with
// an internal role (EINVALID for an unknown or portal role). The user signs
// in once a password is set or through the organization's SSO.
func (s *Service) CreateInternalUser(ctx context.Context, c *access.Caller, in InternalUserInput) (*InternalUser, error) {
	if err := s.check(ctx, c, OpInternalUserCreate, authz.Resource{}); err != nil {
		return nil, err
	}
	role, rerr := internalRole(in.Role)
	email, name, err := userInput("the internal user is not valid", in.Email, in.Name, rerr)
	if err != nil {
		return nil, err
	}
	adminOrgID := s.adminOrgID
	if adminOrgID == "" {
		return nil, platform.Errorf(platform.EINTERNAL, "no administrator organization is configured")
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	u := &platform.User{ID: newID(), OrgID: adminOrgID, Email: email, Name: name, CreatedAt: now, UpdatedAt: now}
	org := s.adminOrgName(ctx)
	err = s.audited(ctx, c, OpInternalUserCreate, on("", "internal-users", u.ID), func(tx *store.Store) error {
		return s.invite(ctx, tx, u, role, "", org)
	})
	if err != nil {
		return nil, err
	}
	return &InternalUser{ID: u.ID, Email: email, Name: name, Role: role.String(), CreatedAt: now}, nil
}

// UpdateInternalUser renames an internal user or changes its internal role.
func (s *Service) UpdateInternalUser(ctx context.Context, c *access.Caller, id string, in InternalUserPatch) (*InternalUser, error) {
	u, err := s.internalUserFor(ctx, c, id, OpInternalUserUpdate)
	if err != nil {
		return nil, err
	}
	if in.Role != nil {
		role, err := internalRole(*in.Role)
		if err != nil {
			return nil, err
		}
		if id == c.UserID && role != c.Role {
			return nil, platform.Errorf(platform.EINVALID, "you cannot change your own role")
		}
		u.Role = role.String()
	}
	if in.Name != nil {
		if u.Name, err = cleanName("name", *in.Name); err != nil {
			return nil, err
		}
	}
	err = s.audited(ctx, c, OpInternalUserUpdate, on("", "internal-users", id), func(tx *store.Store) error {
		return s.saveUser(ctx, tx, id, u.Name, &platform.ConsoleUser{UserID: id, Role: u.Role, CreatedAt: u.CreatedAt})
	})
	if err != nil {
		return nil, err
	}
	return newInternalUser(u), nil
}

// RemoveInternalUser takes away an internal user's role, grants and focus
// mode and suspends the account. EINVALID for oneself.
func (s *Service) RemoveInternalUser(ctx context.Context, c *access.Caller, id string) error {
	if _, err := s.internalUserFor(ctx, c, id, OpInternalUserRemove); err != nil {
		return err
	}
	if id == c.UserID {
		return platform.Errorf(platform.EINVALID, "you cannot remove yourself")
	}
	return s.audited(ctx, c, OpInternalUserRemove, on("", "internal-users", id), func(tx *store.Store) error {
		return tx.RemoveInternalUser(ctx, id, s.now())
	})
}
