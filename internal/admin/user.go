package admin

import (
	"context"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// users manages customers' users and their invitations.
type users struct{ *accounts }

// CustomerUserView is a customer's user as the API shows it, with the state
// of its account (status invited, active, locked or suspended).
type CustomerUserView struct {
	ID         string `json:"id"`
	CustomerID string `json:"customerId"`
	Email      string `json:"email"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	// Language is the user's saved language (D-languages), "" for the
	// browser's.
	Language  string    `json:"language"`
	CreatedAt time.Time `json:"createdAt"`
	AccountState
	// Warning is set on an invitation's answer when the address is outside
	// the domains the customer holds verified (D-verified-domains); the
	// invitation went out all the same.
	Warning string `json:"warning,omitempty"`
}

// newCustomerUser is u's view at now.
func newCustomerUser(u *store.CustomerUser, now time.Time) *CustomerUserView {
	return &CustomerUserView{ID: u.ID, CustomerID: u.CustomerID, Email: u.Email, Name: u.Name, Role: u.Role, Language: u.Locale, CreatedAt: u.CreatedAt,
		AccountState: accountState(u.AccountState, now)}
}

// view is u's view now.
func (s *users) view(u *store.CustomerUser) *CustomerUserView { return newCustomerUser(u, s.now()) }

// InviteInput invites a user to a customer with a portal role other than
// owner (ownership moves only by transfer-ownership); "" is member.
type InviteInput = AccountInput

// UserPatch changes a customer user; nil fields stay.
type UserPatch struct {
	Name *string `json:"name,omitempty"`
	Role *string `json:"role,omitempty"`
	// Language is the user's saved language for pages and e-mails
	// (D-languages): en, de, fr, es or ja, "" for the browser's.
	Language *string `json:"language,omitempty"`
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
	return s.SearchUsers(ctx, c, customerID, "", p)
}

// SearchUsers is ListUsers of the users whose e-mail address or name
// contains search (case-insensitive); an empty search lists all.
func (s *users) SearchUsers(ctx context.Context, c *access.Caller, customerID, search string, p PageInput) (*Page[*CustomerUserView], error) {
	return searchPage(ctx, s.core, c, OpUserList, search, p, func(f authz.Filter, search string) ([]store.CustomerUser, string, error) {
		return s.store.ListCustomerUsers(ctx, f, customerID, search, p)
	}, s.view)
}

// userFor loads a customer user and checks op on it.
func (s *users) userFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.CustomerUser, error) {
	return decided(ctx, s.core, c, op, customerUserResource)(s.store.CustomerUser(ctx, id))
}

// ownerFor is userFor for suspending, reactivating, deleting, unlocking a
// user, revoking its invitation, resetting its second factor and signing
// it out: the customer's owner only platform_admin may (D-owner-protect),
// everyone else gets EFORBIDDEN (audited).
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
	return viewing(s.view)(s.userFor(ctx, c, id, OpUserGet))
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
	warning, err := s.outsideDomains(ctx, cust.ID, email)
	if err != nil {
		return nil, err
	}
	a := account{id: newID(), email: email, name: name, customerID: cust.ID}
	now, err := s.create(ctx, c, OpUserInvite, a, cust.OrgID, role)
	if err != nil {
		return nil, err
	}
	return &CustomerUserView{ID: a.id, CustomerID: cust.ID, Email: email, Name: name, Role: role.String(), CreatedAt: now,
		AccountState: invitedState(), Warning: warning}, nil
}

// outsideDomains is the warning of an invitation to email when the customer
// holds verified domains and the address is at none of them; "" otherwise.
func (s *users) outsideDomains(ctx context.Context, customerID, email string) (string, error) {
	verified, err := s.store.VerifiedDomains(ctx, customerID)
	if err != nil || len(verified) == 0 {
		return "", err
	}
	domain := strings.ToLower(email[strings.LastIndexByte(email, '@')+1:])
	for _, d := range verified {
		if d == domain {
			return "", nil
		}
	}
	return "The address is outside the customer's verified domains (" + strings.Join(verified, ", ") + ").", nil
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
	if err := s.update(ctx, c, OpUserUpdate, customerUserAccount(u), in.Name, &u.Name, cu, in.Language); err != nil {
		return nil, err
	}
	if in.Language != nil {
		u.Locale = *in.Language
	}
	return s.view(u), nil
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
	return s.view(u), nil
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
	return s.view(u), nil
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
	}, s.store.CustomerUser, id, s.view)
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
		s.view, s.store.CustomerUsersByCustomerIDs)
}

// ResendInvitation sends a customer user whose invitation is pending a
// new invitation link; the previous link stops working. EINVALID once the
// invitation was accepted.
func (s *users) ResendInvitation(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return s.support(ctx, c, id, OpUserInvitationResend, s.userFor, s.resendInvitation)
}

// RevokeInvitation takes a pending invitation back: the link stops working
// and the account, which has no credential yet, is removed (D-support-tools).
// EINVALID once the invitation was accepted; the owner's only platform_admin
// revokes (D-owner-protect).
func (s *users) RevokeInvitation(ctx context.Context, c *access.Caller, id string) error {
	return withAccount(ctx, c, id, OpUserInvitationRevoke, s.ownerFor, customerUserAccount, s.revokeInvitation)
}

// UnlockUser ends a customer user's sign-in lockout at once (the failed
// attempts are forgotten). Those who may suspend the user may unlock it;
// the owner only platform_admin (D-owner-protect).
func (s *users) UnlockUser(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return s.support(ctx, c, id, OpUserUnlock, s.ownerFor, s.unlock)
}

// ResetSecondFactor removes a customer user's authenticator app, recovery
// codes and passkeys, ends everything the user is signed in with and mails
// the user (D-support-tools). EINVALID for oneself (the account page does
// that, with a recent proof) and for a user without a second factor; the
// owner's only platform_admin resets (D-owner-protect).
func (s *users) ResetSecondFactor(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	return s.support(ctx, c, id, OpUserSecondFactorReset, s.ownerFor, s.resetSecondFactor)
}

// UserSessions lists a customer user's browser sessions at the identity
// provider, newest first.
func (s *users) UserSessions(ctx context.Context, c *access.Caller, id string, p PageInput) (*Page[*UserSession], error) {
	u, err := s.userFor(ctx, c, id, OpUserSessions)
	if err != nil {
		return nil, err
	}
	return s.sessions(ctx, u.ID, p)
}

// EndUserSession signs a customer user out of one browser session (sid):
// the session and every grant it made end, and the applications that take
// back-channel logouts are told. ENOTFOUND for a session the user does not
// have; the owner's only platform_admin ends (D-owner-protect).
func (s *users) EndUserSession(ctx context.Context, c *access.Caller, id, sid string) error {
	return withAccount(ctx, c, id, OpUserSessionEnd, s.ownerFor, customerUserAccount, s.inSession(sid))
}

// EndUserSessions signs a customer user out everywhere: every browser
// session, grant, refresh token and tenant session ends. The owner's only
// platform_admin ends (D-owner-protect).
func (s *users) EndUserSessions(ctx context.Context, c *access.Caller, id string) error {
	return withAccount(ctx, c, id, OpUserSessionsEnd, s.ownerFor, customerUserAccount, s.endSessions)
}

// support loads the user id with load, which decides on op, makes step on
// its account and answers the user as it is afterwards.
func (s *users) support(ctx context.Context, c *access.Caller, id string, op Operation, load loader[store.CustomerUser],
	step step) (*CustomerUserView, error) {
	return supported(ctx, c, id, op, load, customerUserAccount, step, s.store.CustomerUser, s.view)
}

func customerUserAccount(u *store.CustomerUser) account {
	return account{id: u.ID, email: u.Email, name: u.Name, customerID: u.CustomerID, pending: u.Pending}
}
