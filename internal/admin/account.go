package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// accounts is what the two parts with user accounts share, a customer's
// users (user.go) and internal users (internal_user.go): both are checked,
// created and changed alike, and a new one has no password yet and is sent
// an invitation, a single-use link in an e-mail.
type accounts struct {
	*core
	adminOrgID string // the administrator organization, home of internal users (WithAdminOrg)
	issuer     string // the identity provider's public URL, where links open (WithIssuer)
}

// userInput checks a new user's e-mail address and name, with its role's
// parse error (nil when the role is valid), and reports every problem at
// once: EINVALID with message what and the problems as details.
func userInput(what, email, name string, roleErr error) (string, string, error) {
	email = platform.NormalizeEmail(email)
	var problems []string
	if !platform.ValidEmail(email) {
		problems = append(problems, "email must be an e-mail address")
	}
	name, err := cleanName("name", name)
	if err != nil {
		problems = append(problems, platform.ErrorMessage(err))
	}
	if roleErr != nil {
		problems = append(problems, platform.ErrorMessage(roleErr))
	}
	if len(problems) > 0 {
		return "", "", &platform.Error{Code: platform.EINVALID, Message: what, Details: problems}
	}
	return email, name, nil
}

// invite creates u with role in customerID ("" for an internal role) and
// its invitation (a single-use link and the e-mail carrying it, sendInvitation)
// through tx, the transaction of the write: both or neither. org names the
// organization in the message. ECONFLICT when the organization has the
// address.
func (s *accounts) invite(ctx context.Context, tx *store.Store, u *platform.User, role authz.Role, customerID, org string) error {
	if err := tx.CreateUser(ctx, u); err != nil {
		return err
	}
	err := tx.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: u.ID, Role: role.String(), CustomerID: customerID,
		CreatedAt: u.CreatedAt})
	if err != nil {
		return err
	}
	return s.sendInvitation(ctx, tx, u.ID, u.Email, u.Name, customerID, org)
}

// saveUser writes a user's name and console role through tx.
func (s *accounts) saveUser(ctx context.Context, tx *store.Store, id, name string, role *platform.ConsoleUser) error {
	if err := tx.RenameUser(ctx, id, name, s.now()); err != nil {
		return err
	}
	return tx.PutConsoleUser(ctx, role)
}

// sendInvitation makes a user's invitation link (single use, 7 days, only
// its hash stored; any older link of the user stops working) and queues the
// e-mail carrying it, through tx.
func (s *accounts) sendInvitation(ctx context.Context, tx *store.Store, userID, email, name, customerID, org string) error {
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
func (s *accounts) adminOrgName(ctx context.Context) string {
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
func (s *accounts) allowResend(ctx context.Context, userID string) error {
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

func (s *accounts) notAccepted(ctx context.Context, userID string) error {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return err
	}
	if u.PasswordHash != "" {
		return errAccepted
	}
	return nil
}
