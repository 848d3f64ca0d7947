package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// internalUsers manages the users of the administrator organization and
// their invitations.
type internalUsers struct{ *accounts }

// InternalUser is a user of the administrator organization with an
// internal role, with the state of its account (status invited, active,
// locked or suspended).
type InternalUser struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
	AccountState
}

// newInternalUser is u's view at now.
func newInternalUser(u *store.InternalUser, now time.Time) *InternalUser {
	v := &InternalUser{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, CreatedAt: u.CreatedAt,
		AccountState: accountState(u.AccountState, now)}
	if r, err := authz.ParseRole(u.Role); err == nil {
		v.Role = r.String() // a stored ops_engineer shows as infra_ops
	}
	return v
}

// view is u's view now.
func (s *internalUsers) view(u *store.InternalUser) *InternalUser { return newInternalUser(u, s.now()) }

// InternalUserInput creates an internal user in the administrator
// organization, with an internal role.
type InternalUserInput = AccountInput

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
func (s *internalUsers) ListInternalUsers(ctx context.Context, c *access.Caller, p PageInput) (*Page[*InternalUser], error) {
	return s.SearchInternalUsers(ctx, c, "", p)
}

// SearchInternalUsers is ListInternalUsers of the users whose e-mail
// address or name contains search (case-insensitive).
func (s *internalUsers) SearchInternalUsers(ctx context.Context, c *access.Caller, search string, p PageInput) (*Page[*InternalUser], error) {
	if err := s.infra(ctx, c, OpInternalUserList); err != nil {
		return nil, err
	}
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	search, err := cleanSearch(search)
	if err != nil {
		return nil, err
	}
	rows, next, err := s.store.ListInternalUsers(ctx, search, p)
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, s.view), next), nil
}

// internalUserFor checks op, which no customer's scope limits, and loads
// the internal user id.
func (s *internalUsers) internalUserFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.InternalUser, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	return s.store.InternalUser(ctx, id)
}

// InternalUser returns one internal user.
func (s *internalUsers) InternalUser(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	return viewing(s.view)(s.internalUserFor(ctx, c, id, OpInternalUserGet))
}

// CreateInternalUser creates a user in the administrator organization with
// an internal role (EINVALID for an unknown or portal role). The user signs
// in once a password is set or through the organization's SSO.
func (s *internalUsers) CreateInternalUser(ctx context.Context, c *access.Caller, in InternalUserInput) (*InternalUser, error) {
	if err := s.infra(ctx, c, OpInternalUserCreate); err != nil {
		return nil, err
	}
	role, rerr := internalRole(in.Role)
	email, name, err := userInput("the internal user is not valid", in.Email, in.Name, rerr)
	if err != nil {
		return nil, err
	}
	if s.adminOrgID == "" {
		return nil, platform.Errorf(platform.EINTERNAL, "no administrator organization is configured")
	}
	a := account{id: newID(), email: email, name: name}
	now, err := s.create(ctx, c, OpInternalUserCreate, a, s.adminOrgID, role)
	if err != nil {
		return nil, err
	}
	return &InternalUser{ID: a.id, Email: email, Name: name, Role: role.String(), CreatedAt: now, AccountState: invitedState()}, nil
}

// UpdateInternalUser renames an internal user or changes its internal role.
func (s *internalUsers) UpdateInternalUser(ctx context.Context, c *access.Caller, id string, in InternalUserPatch) (*InternalUser, error) {
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
	cu := &platform.ConsoleUser{UserID: id, Role: u.Role, CreatedAt: u.CreatedAt}
	if err := s.update(ctx, c, OpInternalUserUpdate, internalUserAccount(u), in.Name, &u.Name, cu, nil); err != nil {
		return nil, err
	}
	return s.view(u), nil
}

// RemoveInternalUser takes away an internal user's role, grants and focus
// mode and suspends the account. EINVALID for oneself.
func (s *internalUsers) RemoveInternalUser(ctx context.Context, c *access.Caller, id string) error {
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

// InternalUserResource checks that id is an internal user; it names no customer.
func (s *internalUsers) InternalUserResource(ctx context.Context, id string) (authz.Resource, error) {
	_, err := s.store.InternalUser(ctx, id)
	return authz.Resource{}, err
}

// InternalUsersByIDs returns the internal users of ids in key order, nil
// where missing (Grant.user); roles that may not read internal users get
// EFORBIDDEN.
func (s *internalUsers) InternalUsersByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*InternalUser, error) {
	if err := s.checkRole(ctx, c, OpInternalUserList); err != nil {
		return nil, err
	}
	rows, err := s.store.InternalUsersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	by := make(map[string]*InternalUser, len(rows))
	for i := range rows {
		by[rows[i].ID] = s.view(&rows[i])
	}
	out := make([]*InternalUser, len(ids))
	for i, id := range ids {
		out[i] = by[id]
	}
	return out, nil
}

// ResendInternalInvitation is ResendInvitation for an internal user.
func (s *internalUsers) ResendInternalInvitation(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	return s.support(ctx, c, id, OpInternalUserInvitationResend, s.resendInvitation)
}

// RevokeInternalInvitation is RevokeInvitation for an internal user: the
// pending account is removed.
func (s *internalUsers) RevokeInternalInvitation(ctx context.Context, c *access.Caller, id string) error {
	return withAccount(ctx, c, id, OpInternalUserInvitationRevoke, s.internalUserFor, internalUserAccount, s.revokeInvitation)
}

// UnlockInternalUser is UnlockUser for an internal user (platform_admin).
func (s *internalUsers) UnlockInternalUser(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	return s.support(ctx, c, id, OpInternalUserUnlock, s.unlock)
}

// ResetInternalSecondFactor is ResetSecondFactor for an internal user (platform_admin).
func (s *internalUsers) ResetInternalSecondFactor(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	return s.support(ctx, c, id, OpInternalUserSecondFactorReset, s.resetSecondFactor)
}

// InternalUserSessions is UserSessions for an internal user (platform_admin;
// compliance_admin and reader read).
func (s *internalUsers) InternalUserSessions(ctx context.Context, c *access.Caller, id string, p PageInput) (*Page[*UserSession], error) {
	u, err := s.internalUserFor(ctx, c, id, OpInternalUserSessions)
	if err != nil {
		return nil, err
	}
	return s.sessions(ctx, u.ID, p)
}

// EndInternalUserSession is EndUserSession for an internal user (platform_admin).
func (s *internalUsers) EndInternalUserSession(ctx context.Context, c *access.Caller, id, sid string) error {
	return withAccount(ctx, c, id, OpInternalUserSessionEnd, s.internalUserFor, internalUserAccount, s.inSession(sid))
}

// EndInternalUserSessions is EndUserSessions for an internal user (platform_admin).
func (s *internalUsers) EndInternalUserSessions(ctx context.Context, c *access.Caller, id string) error {
	return withAccount(ctx, c, id, OpInternalUserSessionsEnd, s.internalUserFor, internalUserAccount, s.endSessions)
}

// support loads the internal user id, deciding on op, makes step on its
// account and answers the user as it is afterwards.
func (s *internalUsers) support(ctx context.Context, c *access.Caller, id string, op Operation, step step) (*InternalUser, error) {
	return supported(ctx, c, id, op, s.internalUserFor, internalUserAccount, step, s.store.InternalUser, s.view)
}

func internalUserAccount(u *store.InternalUser) account {
	return account{id: u.ID, email: u.Email, name: u.Name, pending: u.Pending}
}
