package admin

import (
	"context"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// User accounts with a console role, a customer's (user.go) or internal
// (internal_user.go), are checked, created and changed alike: a new one has
// no password yet and is sent an invitation.

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
// its invitation (a single-use link and the e-mail carrying it, invitation.go)
// through tx, the transaction of the write: both or neither. org names the
// organization in the message. ECONFLICT when the organization has the
// address.
func (s *Service) invite(ctx context.Context, tx *store.Store, u *platform.User, role authz.Role, customerID, org string) error {
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
func (s *Service) saveUser(ctx context.Context, tx *store.Store, id, name string, role *platform.ConsoleUser) error {
	if err := tx.RenameUser(ctx, id, name, s.now()); err != nil {
		return err
	}
	return tx.PutConsoleUser(ctx, role)
}
