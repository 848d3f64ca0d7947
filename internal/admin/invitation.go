package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// WithIssuer sets the identity provider's public URL, where the links of
// invitations open (mail.PathInvitation).
func WithIssuer(url string) Option { return func(s *Service) { s.issuer = url } }

// sendInvitation makes a user's invitation link (single use, 7 days, only
// its hash stored; any older link of the user stops working) and queues the
// e-mail carrying it, through tx.
func (s *Service) sendInvitation(ctx context.Context, tx *store.Store, userID, email, name, customerID, org string) error {
	token, hash := mail.NewToken()
	now := s.stamp()
	err := tx.CreateAccountToken(ctx, &store.AccountToken{Hash: hash, Kind: store.TokenInvitation, UserID: userID,
		CreatedAt: now, ExpiresAt: now.Add(mail.InvitationLifetime)}, true)
	if err != nil {
		return err
	}
	return s.queueMail(ctx, tx, mail.Message{Kind: mail.KindInvitation, To: email, CustomerID: customerID, UserID: userID,
		Org: org, Name: name, Link: mail.Link(s.issuer, mail.PathInvitation, token)})
}

// adminOrgName is the administrator organization's name, for internal
// users' messages.
func (s *Service) adminOrgName(ctx context.Context) string {
	if o, err := s.store.Organization(ctx, s.adminOrgID); err == nil {
		return o.Name
	}
	return "the platform console"
}

var errAccepted = platform.Errorf(platform.EINVALID, "the user has already accepted the invitation")

// resendLimit is how many times one user's invitation may be sent again in
// an hour (counted in the database, so replicas share it): an administrator's
// script or a stolen console token cannot turn the platform's mail into a
// flood at someone's inbox.
const resendLimit = 5

// allowResend counts one resend to userID; ELIMIT past resendLimit.
func (s *Service) allowResend(ctx context.Context, userID string) error {
	now := s.stamp()
	ok, reset, err := s.store.Allow(ctx, "resend-invitation:"+userID, resendLimit, time.Hour, now)
	if err != nil {
		return err
	}
	if !ok {
		return platform.Errorf(platform.ELIMIT, "this invitation was sent %d times this hour; try again in %d minutes",
			resendLimit, int(reset.Sub(now).Minutes())+1)
	}
	return nil
}

// ResendInvitation sends a customer user who has not set a password yet a
// new invitation link; the previous link stops working. EINVALID once the
// invitation was accepted.
func (s *Service) ResendInvitation(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	u, err := s.userFor(ctx, c, id, OpUserInvitationResend)
	if err != nil {
		return nil, err
	}
	if u.HasPassword {
		return nil, errAccepted
	}
	if err := s.allowResend(ctx, u.ID); err != nil {
		return nil, err
	}
	cust, err := s.store.Customer(ctx, u.CustomerID)
	if err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpUserInvitationResend, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		return s.sendInvitation(ctx, tx, u.ID, u.Email, u.Name, u.CustomerID, cust.Name)
	})
	if err != nil {
		return nil, err
	}
	return newCustomerUser(u), nil
}

// RevokeInvitation makes a customer user's open invitation link stop
// working; the user stays, invited, until invited again (resend) or
// deleted. EINVALID once the invitation was accepted.
func (s *Service) RevokeInvitation(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	u, err := s.userFor(ctx, c, id, OpUserInvitationRevoke)
	if err != nil {
		return nil, err
	}
	if u.HasPassword {
		return nil, errAccepted
	}
	err = s.audited(ctx, c, OpUserInvitationRevoke, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		return tx.DeleteAccountTokens(ctx, u.ID, store.TokenInvitation)
	})
	if err != nil {
		return nil, err
	}
	return newCustomerUser(u), nil
}

// ResendInternalInvitation is ResendInvitation for an internal user.
func (s *Service) ResendInternalInvitation(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	u, err := s.internalUserFor(ctx, c, id, OpInternalUserInvitationResend)
	if err != nil {
		return nil, err
	}
	if err := s.notAccepted(ctx, u.ID); err != nil {
		return nil, err
	}
	if err := s.allowResend(ctx, u.ID); err != nil {
		return nil, err
	}
	org := s.adminOrgName(ctx)
	err = s.audited(ctx, c, OpInternalUserInvitationResend, on("", "internal-users", id), func(tx *store.Store) error {
		return s.sendInvitation(ctx, tx, u.ID, u.Email, u.Name, "", org)
	})
	if err != nil {
		return nil, err
	}
	return newInternalUser(u), nil
}

// RevokeInternalInvitation is RevokeInvitation for an internal user.
func (s *Service) RevokeInternalInvitation(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	u, err := s.internalUserFor(ctx, c, id, OpInternalUserInvitationRevoke)
	if err != nil {
		return nil, err
	}
	if err := s.notAccepted(ctx, u.ID); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpInternalUserInvitationRevoke, on("", "internal-users", id), func(tx *store.Store) error {
		return tx.DeleteAccountTokens(ctx, u.ID, store.TokenInvitation)
	})
	if err != nil {
		return nil, err
	}
	return newInternalUser(u), nil
}

func (s *Service) notAccepted(ctx context.Context, userID string) error {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return err
	}
	if u.PasswordHash != "" {
		return errAccepted
	}
	return nil
}

// UnlockUser ends a customer user's sign-in lockout at once (the failed
// attempts are forgotten). Those who may suspend the user may unlock it.
func (s *Service) UnlockUser(ctx context.Context, c *access.Caller, id string) (*CustomerUserView, error) {
	u, err := s.userFor(ctx, c, id, OpUserUnlock)
	if err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpUserUnlock, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		return tx.ResetLoginFailures(ctx, u.ID)
	})
	if err != nil {
		return nil, err
	}
	return newCustomerUser(u), nil
}

// UnlockInternalUser is UnlockUser for an internal user (platform_admin).
func (s *Service) UnlockInternalUser(ctx context.Context, c *access.Caller, id string) (*InternalUser, error) {
	u, err := s.internalUserFor(ctx, c, id, OpInternalUserUnlock)
	if err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpInternalUserUnlock, on("", "internal-users", id), func(tx *store.Store) error {
		return tx.ResetLoginFailures(ctx, u.ID)
	})
	if err != nil {
		return nil, err
	}
	return newInternalUser(u), nil
}
