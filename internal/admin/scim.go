package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// scimUsers is what a customer's directory does to its users through SCIM
// (D-scim), as the caller a SCIM token acts as (SCIMCaller): every change
// takes the path the console's takes, decided and audited alike: a new user
// is created without a password and invited when the organization's policy
// allows passwords (else it signs in by the organization's SSO); active
// false suspends (every credential ends at once) and active true
// reactivates; a removal deletes the user. The owner is neither suspended
// nor removed (D-owner-protect).
type scimUsers struct{ u users }

// SCIMUserView is a customer's user with its directory's externalId.
type SCIMUserView struct {
	*CustomerUserView
	ExternalID string
}

func (s *scimUsers) scimView(u *store.SCIMUser) *SCIMUserView {
	return &SCIMUserView{CustomerUserView: s.u.view(&u.CustomerUser), ExternalID: u.ExternalID}
}

// SCIMUserInput is a user as the directory sends it; Active nil leaves the
// user's state as it is (active for a new one).
type SCIMUserInput struct {
	Email      string
	Name       string
	ExternalID string
	Active     *bool
}

// SCIMUsers lists the caller's customer's users meeting f, count of them
// from offset on, and how many meet f.
func (s *scimUsers) SCIMUsers(ctx context.Context, c *access.Caller, f *SCIMFilter, offset, count int) ([]*SCIMUserView, int, error) {
	if _, err := s.u.customerFor(ctx, c, c.CustomerID, OpUserList); err != nil {
		return nil, 0, err
	}
	rows, total, err := s.u.store.SCIMUsers(ctx, c.CustomerID, f, offset, count)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*SCIMUserView, 0, len(rows))
	for i := range rows {
		out = append(out, s.scimView(&rows[i]))
	}
	return out, total, nil
}

// SCIMUser returns one of the customer's users. ENOTFOUND for any other id.
func (s *scimUsers) SCIMUser(ctx context.Context, c *access.Caller, id string) (*SCIMUserView, error) {
	if _, err := s.u.userFor(ctx, c, id, OpUserGet); err != nil {
		return nil, err
	}
	u, err := s.u.store.SCIMUser(ctx, c.CustomerID, id)
	if err != nil {
		return nil, err
	}
	return s.scimView(u), nil
}

// SCIMCreateUser creates a user of the caller's customer with the member
// role, and its invitation when the organization's policy allows
// passwords; inactive when the directory says so. ECONFLICT when the
// organization has the address or the customer the externalId.
func (s *scimUsers) SCIMCreateUser(ctx context.Context, c *access.Caller, in SCIMUserInput) (*SCIMUserView, error) {
	cust, err := s.u.customerFor(ctx, c, c.CustomerID, OpUserInvite)
	if err != nil {
		return nil, err
	}
	email, name, err := userInput("the user is not valid", in.Email, in.Name, nil)
	if err != nil {
		return nil, err
	}
	externalID, err := text("externalId", in.ExternalID, 200)
	if err != nil {
		return nil, err
	}
	policy, err := s.u.store.LoginPolicy(ctx, cust.OrgID)
	if err != nil {
		return nil, err
	}
	a := account{id: newID(), email: email, name: name, customerID: cust.ID}
	now := s.u.stamp()
	u := &platform.User{ID: a.id, OrgID: cust.OrgID, Email: email, Name: name, CreatedAt: now, UpdatedAt: now}
	suspended := in.Active != nil && !*in.Active
	err = s.u.audited(ctx, c, OpUserInvite, a.acted(), func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		if suspended {
			if err := tx.SetUserSuspended(ctx, u.ID, now); err != nil {
				return err
			}
		}
		cu := &platform.ConsoleUser{UserID: u.ID, Role: authz.Member.String(), CustomerID: cust.ID, CreatedAt: now}
		if err := tx.PutConsoleUser(ctx, cu); err != nil {
			return err
		}
		if err := tx.SetSCIMExternalID(ctx, cust.ID, u.ID, externalID); err != nil {
			return err
		}
		if !policy.PasswordAllowed {
			return nil
		}
		return s.u.sendInvitation(ctx, tx, a, cust.Name)
	})
	if err != nil {
		return nil, err
	}
	return s.SCIMUser(ctx, c, a.id)
}

// SCIMReplaceUser sets a user's name, externalId and, when in.Active is
// given, its state: false suspends it (SuspendUser), true reactivates it
// (ReactivateUser). The address (userName) does not change: EINVALID when
// in.Email names another. Everything that can refuse the request is checked
// before anything is written (the name, a taken externalId, the state change
// the caller may not make, as on the owner), so a refusal leaves the user
// as it was.
func (s *scimUsers) SCIMReplaceUser(ctx context.Context, c *access.Caller, id string, in SCIMUserInput) (*SCIMUserView, error) {
	cur, err := s.SCIMUser(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if in.Email != "" && platform.NormalizeEmail(in.Email) != cur.Email {
		return nil, platform.Errorf(platform.EINVALID, "userName is the user's e-mail address and does not change")
	}
	externalID, err := text("externalId", in.ExternalID, 200)
	if err != nil {
		return nil, err
	}
	name := cur.Name
	if in.Name != "" {
		if name, err = cleanName("name", in.Name); err != nil {
			return nil, err
		}
	}
	renamed := name != cur.Name || externalID != cur.ExternalID
	if externalID != "" && externalID != cur.ExternalID {
		taken, _, err := s.u.store.SCIMUsers(ctx, c.CustomerID, &SCIMFilter{Op: "eq", Attr: "externalId", Value: externalID}, 0, 1)
		if err != nil {
			return nil, err
		}
		if len(taken) > 0 {
			return nil, platform.Errorf(platform.ECONFLICT, "another user of this customer has this externalId")
		}
	}
	switch {
	case in.Active != nil && !*in.Active && cur.SuspendedAt == nil:
		_, err = s.u.SuspendUser(ctx, c, id)
	case in.Active != nil && *in.Active && cur.SuspendedAt != nil:
		_, err = s.u.ReactivateUser(ctx, c, id)
	}
	if err != nil {
		return nil, err
	}
	if renamed {
		if err := s.rename(ctx, c, id, name, externalID); err != nil {
			return nil, err
		}
	}
	return s.SCIMUser(ctx, c, id)
}

// rename writes the user's name and externalId as OpUserUpdate.
func (s *scimUsers) rename(ctx context.Context, c *access.Caller, id, name, externalID string) error {
	u, err := s.u.userFor(ctx, c, id, OpUserUpdate)
	if err != nil {
		return err
	}
	return s.u.audited(ctx, c, OpUserUpdate, on(u.CustomerID, "users", id), func(tx *store.Store) error {
		if err := tx.RenameUser(ctx, id, name, s.u.now()); err != nil {
			return err
		}
		return tx.SetSCIMExternalID(ctx, u.CustomerID, id, externalID)
	})
}

// SCIMDeleteUser removes a user of the customer (DeleteUser): every token
// and session of it ends.
func (s *scimUsers) SCIMDeleteUser(ctx context.Context, c *access.Caller, id string) error {
	return s.u.DeleteUser(ctx, c, id)
}
