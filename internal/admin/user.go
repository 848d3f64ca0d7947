package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// users manages customers' users and their invitations.
type users struct{ *accounts }

// CustomerUserView is a customer's user as the API shows it. Status is
// invited (no password yet), active or suspended.
type CustomerUserView struct {
	ID          string     `json:"id"`
	CustomerID  string     `json:"customerId"`
	Email       string     `json:"email"`
	Name        string     `json:"name"`
	Role        string     `json:"role"`
	Status      string     `json:"status"`
	SuspendedAt *time.Time `json:"suspendedAt"`
	CreatedAt   time.Time  `json:"createdAt"`
}

func newCustomerUser(u *store.CustomerUser) *CustomerUserView {
	v := &CustomerUserView{ID: u.ID, CustomerID: u.CustomerID, Email: u.Email, Name: u.Name, Role: u.Role, Status: "active",
		CreatedAt: u.CreatedAt}
	switch {
	case !u.SuspendedAt.IsZero():
		v.Status, v.SuspendedAt = "suspended", timeOrNull(u.SuspendedAt)
	case !u.HasPassword:
		v.Status = "invited"
	}
	return v
}

// InviteInput invites a user to a customer with a portal role other than
// owner (ownership moves only by transfer-ownership).
type InviteInput struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role"`
}

// UserPatch changes a customer user; nil fields stay.
type UserPatch struct {
	Name *string `json:"name,omitempty"`
	Role *string `json:"role,omitempty"`
}

// HomeOrgInput names a user's new home customer.
type HomeOrgInput struct {
	CustomerID string `json:"customerId"`
}

// portalRole parses a portal role a user may be given directly (not owner).
func portalRole(s string) (authz.Role, error) {
	r, err := authz.ParseRole(s)
	if err != nil || !r.Portal() {
		return 0, platform.Errorf(platform.EINVALID, "role must be one of admin, billing, viewer, member")
	}
	if r == authz.Owner {
		return 0, platform.Errorf(platform.EINVALID, "ownership moves only with transfer-ownership")
	}
	return r, nil
}

// ListUsers lists customers' users in the caller's scope, optionally of one customer.
func (s *users) ListUsers(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*CustomerUserView], error) {
	return namePage(ctx, s.core, c, OpUserList, p, func(f authz.Filter) ([]store.CustomerUser, string, error) {
		return s.store.ListCustomerUsers(ctx, f, customerID, p)
	}, newCustomerUser)
}

// userFor loads a customer user and checks op on it.
func (s *users) userFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.CustomerUser, error) {
	return decided(ctx, s.core, c, op, customerUserResource)(s.store.CustomerUser(ctx, id))
}

// ownerFor is userFor for suspending, reactivating or deleting a user: the
// customer's owner only platform_admin may (D-owner-protect), everyone else
// gets EFORBIDDEN (audited).
func (s *users) ownerFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.CustomerUser, error) {
	u, err := s.userFor(ctx, c, id, op)
	if err != nil {
		return nil, err
	}
	if u.Role == authz.Owner.String() {
		if err := s.check(ctx, c, op, authz.Resource{CustomerID: u.CustomerID, Owner: true}); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// User returns one customer user.
func (s *users) User(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return viewing(newCustomerUser)(s.userFor(ctx, c, id, OpUserGet))
}

// InviteUser creates a user in the customer's organization at the identity
// provider, without a password, with a portal role, and records the
// invitation e-mail. ECONFLICT when the organization has the address.
func (s *users) InviteUser(ctx context.Context, c *access.Caller, customerID string, in InviteInput) (*CustomerUserView, error) {
	cust, err := s.customerFor(ctx, c, customerID, OpUserInvite)
	if err != nil {
		return nil, err
	}
	role, rerr := portalRole(in.Role)
	if in.Role == "" {
		role, rerr = authz.Member, nil
	}
	email, name, err := userInput("the invitation is not valid", in.Email, in.Name, rerr)
	if err != nil {
		return nil, err
	}
	a := account{id: newID(), email: email, name: name, customerID: cust.ID}
	now, err := s.create(ctx, c, OpUserInvite, a, cust.OrgID, role)
	if err != nil {
		return nil, err
	}
	return &CustomerUserView{ID: a.id, CustomerID: cust.ID, Email: email, Name: name, Role: role.String(), Status: "invited",
		CreatedAt: now}, nil
}

// UpdateUser renames a customer user or changes its portal role (not to or
// from owner: that is transfer-ownership).
func (s *users) UpdateUser(ctx context.Context, c *access.Caller, id string, in UserPatch) (*CustomerUserView, error) {
	u, err := s.userFor(ctx, c, id, OpUserUpdate)
	if err != nil {
		return nil, err
	}
	if in.Role != nil {
		role, err := portalRole(*in.Role)
		if err != nil {
			return nil, err
		}
		if u.Role == authz.Owner.String() {
			return nil, platform.Errorf(platform.EINVALID, "the owner's role changes only with transfer-ownership")
		}
		u.Role = role.String()
	}
	cu := &platform.ConsoleUser{UserID: id, Role: u.Role, CustomerID: u.CustomerID, CreatedAt: s.now()}
	if err := s.update(ctx, c, OpUserUpdate, customerUserAccount(u), in.Name, &u.Name, cu); err != nil {
		return nil, err
	}
	return newCustomerUser(u), nil
}

// DeleteUser removes a customer user from the identity provider; every
// token and session of the user ends with it. Only platform_admin removes
// the customer's owner (D-owner-protect): EFORBIDDEN for anyone else.
func (s *users) DeleteUser(ctx context.Context, c *access.Caller, id string) error {
	u, err := s.ownerFor(ctx, c, id, OpUserDelete)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpUserDelete, on(u.CustomerID, "users", id), func(tx *store.Store) error { return tx.DeleteUser(ctx, id) })
}

// SuspendUser suspends a customer user: it can no longer sign in, and
// everything it is signed in with ends at once, on every API and replica
// (its grants are revoked, D-credentials-follow). Only platform_admin
// suspends the customer's owner (D-owner-protect): EFORBIDDEN for anyone
// else. EINVALID for oneself.
func (s *users) SuspendUser(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	u, err := s.ownerFor(ctx, c, id, OpUserSuspend)
	if err != nil {
		return nil, err
	}
	if u.ID == c.UserID {
		return nil, platform.Errorf(platform.EINVALID, "you cannot suspend yourself")
	}
	err = s.audited(ctx, c, OpUserSuspend, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		if !u.SuspendedAt.IsZero() {
			return nil
		}
		u.SuspendedAt = s.stamp()
		return tx.SetUserSuspended(ctx, id, u.SuspendedAt)
	})
	if err != nil {
		return nil, err
	}
	return newCustomerUser(u), nil
}

// ReactivateUser lifts a suspension; the user signs in again (nothing it
// was signed in with before comes back). The owner only platform_admin
// reactivates (D-owner-protect).
func (s *users) ReactivateUser(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	u, err := s.ownerFor(ctx, c, id, OpUserReactivate)
	if err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpUserReactivate, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		if u.SuspendedAt.IsZero() {
			return nil
		}
		return tx.SetUserSuspended(ctx, id, time.Time{})
	})
	if err != nil {
		return nil, err
	}
	u.SuspendedAt = time.Time{}
	return newCustomerUser(u), nil
}

// TransferHomeOrg moves a user to another customer's organization
// (platform_admin only, R4.6-admin-only); an owner arrives as admin.
// EINVALID for the same customer or a missing one; ECONFLICT when the
// destination already has a user with that address.
func (s *users) TransferHomeOrg(ctx context.Context, c *access.Caller, id string, in HomeOrgInput) (*CustomerUserView, error) {
	u, err := s.userFor(ctx, c, id, OpUserTransferHomeOrg)
	if err != nil {
		return nil, err
	}
	dest, err := s.destination(ctx, u.CustomerID, in.CustomerID, "user")
	if err != nil {
		return nil, err
	}
	// the event is the customer's the user leaves, on which it was decided
	return reread(ctx, s.core, c, OpUserTransferHomeOrg, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		return tx.MoveUser(ctx, id, dest.OrgID, dest.ID, s.now())
	}, s.store.CustomerUser, id, newCustomerUser)
}

func customerUserResource(u *store.CustomerUser) authz.Resource {
	return authz.Resource{CustomerID: u.CustomerID}
}

// CustomerUserResource is the customer of the customer user id.
func (s *users) CustomerUserResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(customerUserResource)(s.store.CustomerUser(ctx, id))
}

// UsersByCustomerIDs returns each customer's users (Customer.users).
func (s *users) UsersByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*CustomerUserView, error) {
	return childBatch(ctx, s.core, c, OpUserList, limit, ids, func(u *store.CustomerUser) string { return u.CustomerID },
		newCustomerUser, s.store.CustomerUsersByCustomerIDs)
}

// ResendInvitation sends a customer user who has not set a password yet a
// new invitation link; the previous link stops working. EINVALID once the
// invitation was accepted.
func (s *users) ResendInvitation(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return withAccount(ctx, c, id, OpUserInvitationResend, s.userFor, customerUserAccount, s.resendInvitation, newCustomerUser)
}

// RevokeInvitation makes a customer user's open invitation link stop
// working; the user stays, invited, until invited again (resend) or
// deleted. EINVALID once the invitation was accepted.
func (s *users) RevokeInvitation(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return withAccount(ctx, c, id, OpUserInvitationRevoke, s.userFor, customerUserAccount, s.revokeInvitation, newCustomerUser)
}

// UnlockUser ends a customer user's sign-in lockout at once (the failed
// attempts are forgotten). Those who may suspend the user may unlock it.
func (s *users) UnlockUser(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return withAccount(ctx, c, id, OpUserUnlock, s.userFor, customerUserAccount, s.unlock, newCustomerUser)
}

func customerUserAccount(u *store.CustomerUser) account {
	return account{id: u.ID, email: u.Email, name: u.Name, customerID: u.CustomerID}
}
