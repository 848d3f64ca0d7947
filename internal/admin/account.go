package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/i18n"
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

// account is a user with a console role as accounts acts on it.
type account struct {
	id, email, name string
	customerID      string // "" for an internal user
	pending         bool   // no credential yet: its invitation is not accepted (store.AccountState)
}

// acted names the account for its audit events, which its customer sees.
func (a account) acted() acted {
	if a.customerID == "" {
		return on("", "internal-users", a.id)
	}
	return on(a.customerID, "users", a.id)
}

// AccountInput is a new account as both parts take it: its e-mail address,
// name and console role (InviteInput, InternalUserInput).
type AccountInput struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role"`
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

// create makes the new user a in the organization orgID with role, and its
// invitation, as op: in one transaction with the audit event, so both or
// neither. It answers when the user was created. ECONFLICT when the
// organization has the address.
func (s *accounts) create(ctx context.Context, c *access.Caller, op Operation, a account, orgID string, role authz.Role) (time.Time, error) {
	org, err := s.orgName(ctx, a.customerID)
	if err != nil {
		return time.Time{}, err
	}
	now := s.stamp()
	u := &platform.User{ID: a.id, OrgID: orgID, Email: a.email, Name: a.name, CreatedAt: now, UpdatedAt: now}
	return now, s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		err := tx.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: u.ID, Role: role.String(), CustomerID: a.customerID, CreatedAt: now})
		if err != nil {
			return err
		}
		return s.sendInvitation(ctx, tx, a, org)
	})
}

// update writes the user's console role cu and its name, *name renamed to
// rename when that is given (1 to 200 characters), as op.
func (s *accounts) update(ctx context.Context, c *access.Caller, op Operation, a account, rename *string, name *string,
	cu *platform.ConsoleUser, language *string) error {
	if rename != nil {
		n, err := cleanName("name", *rename)
		if err != nil {
			return err
		}
		*name = n
	}
	if language != nil {
		if _, ok := i18n.Valid(*language); !ok {
			return &platform.Error{Code: platform.EINVALID, Message: "invalid user",
				Details: []string{"language must be one of en, de, fr, es, ja, or empty for the browser's"}}
		}
	}
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error {
		if err := tx.RenameUser(ctx, a.id, *name, s.now()); err != nil {
			return err
		}
		if language != nil {
			if err := tx.SetUserLocale(ctx, a.id, *language, s.now()); err != nil {
				return err
			}
		}
		return tx.PutConsoleUser(ctx, cu)
	})
}

// orgName names the organization of a user of customerID ("" for an
// internal user) in its messages.
func (s *accounts) orgName(ctx context.Context, customerID string) (string, error) {
	if customerID == "" {
		if o, err := s.store.Organization(ctx, s.adminOrgID); err == nil {
			return o.Name, nil
		}
		return "the platform console", nil
	}
	cust, err := s.store.Customer(ctx, customerID)
	if err != nil {
		return "", err
	}
	return cust.Name, nil
}

// sendInvitation makes a's invitation link (single use, 7 days, only its
// hash stored; any older link of the user stops working) and queues the
// e-mail carrying it, naming the organization org, through tx.
func (s *accounts) sendInvitation(ctx context.Context, tx *store.Store, a account, org string) error {
	token, hash := mail.NewToken()
	now := s.stamp()
	err := tx.CreateAccountToken(ctx, &store.AccountToken{Hash: hash, Kind: store.TokenInvitation, UserID: a.id,
		CreatedAt: now, ExpiresAt: now.Add(mail.InvitationLifetime)}, true)
	if err != nil {
		return err
	}
	return s.queueMail(ctx, tx, mail.Message{Kind: mail.KindInvitation, To: a.email, CustomerID: a.customerID, UserID: a.id,
		Org: org, Name: a.name, Link: mail.Link(s.issuer, mail.PathInvitation, token)})
}

var errAccepted = platform.Errorf(platform.EINVALID, "the user has already accepted the invitation")

// resendLimit is how many times one user's invitation may be sent again in
// an hour (counted in the database, so replicas share it): an administrator's
// script or a stolen console token cannot turn the platform's mail into a
// flood at someone's inbox.
const resendLimit = 5

// resendInvitation sends a, whose invitation is pending, a new invitation
// link as op; the previous link stops working. EINVALID once the invitation
// was accepted; ELIMIT past resendLimit an hour.
func (s *accounts) resendInvitation(ctx context.Context, c *access.Caller, op Operation, a account) error {
	if !a.pending {
		return errAccepted
	}
	now := s.stamp()
	ok, reset, err := s.store.Allow(ctx, "resend-invitation:"+a.id, resendLimit, time.Hour, now)
	if err != nil {
		return err
	}
	if !ok {
		return platform.Errorf(platform.ELIMIT, "this invitation was sent %d times this hour; try again in %d minutes",
			resendLimit, int(reset.Sub(now).Minutes())+1)
	}
	org, err := s.orgName(ctx, a.customerID)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error { return s.sendInvitation(ctx, tx, a, org) })
}

// revokeInvitation takes a's pending invitation back as op: the account,
// which has no credential yet, is removed with its open link
// (D-support-tools), so the link stops working and the address can be
// invited again. EINVALID once the invitation was accepted, also when that
// happens while this runs (the removal's own condition).
func (s *accounts) revokeInvitation(ctx context.Context, c *access.Caller, op Operation, a account) error {
	if !a.pending {
		return errAccepted
	}
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error { return tx.RemovePendingUser(ctx, a.id) })
}

// unlock ends a's sign-in lockout at once (the failed attempts are
// forgotten), as op.
func (s *accounts) unlock(ctx context.Context, c *access.Caller, op Operation, a account) error {
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error { return tx.ResetLoginFailures(ctx, a.id) })
}

// step is one of the operations accounts makes on an account, as op.
type step func(ctx context.Context, c *access.Caller, op Operation, a account) error

// loader loads a record with an account by id, deciding on op.
type loader[R any] func(ctx context.Context, c *access.Caller, id string, op Operation) (*R, error)

// withAccount loads the record id (load decides on op) and makes step on
// its account as op.
func withAccount[R any](ctx context.Context, c *access.Caller, id string, op Operation, load loader[R], acct func(*R) account,
	step step) error {
	row, err := load(ctx, c, id, op)
	if err != nil {
		return err
	}
	return step(ctx, c, op, acct(row))
}

// supported is withAccount answering the record's view as it is
// afterwards (reread).
func supported[R, V any](ctx context.Context, c *access.Caller, id string, op Operation, load loader[R], acct func(*R) account,
	step step, reread func(context.Context, string) (*R, error), view func(*R) *V) (*V, error) {
	if err := withAccount(ctx, c, id, op, load, acct, step); err != nil {
		return nil, err
	}
	return viewing(view)(reread(ctx, id))
}
