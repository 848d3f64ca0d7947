package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// scimUsers is what a directory does to its organization's users through
// SCIM (D-scim, D-scim-internal), as the caller a SCIM token acts as
// (SCIMCaller): every change takes the path the console's takes, decided
// and audited alike: a new user is created without a password and invited
// when the organization's policy allows passwords (else it signs in by the
// organization's SSO); active false suspends (every credential ends at
// once) and active true reactivates; a removal deletes the user. A
// customer's owner is neither suspended nor removed (D-owner-protect).
type scimUsers struct {
	u    users
	dirs *directories
}

// SCIMUserView is a user of the directory's organization with its
// directory's externalId; CustomerID is "" in the administrator
// organization.
type SCIMUserView struct {
	*CustomerUserView
	ExternalID string
	// Locale is the user's saved language ("" for none; D-languages).
	Locale string
}

func (s *scimUsers) scimView(u *store.SCIMUser) *SCIMUserView {
	return &SCIMUserView{CustomerUserView: s.u.view(&u.CustomerUser), ExternalID: u.ExternalID, Locale: u.Locale}
}

// SCIMUserInput is a user as the directory sends it; Active nil leaves the
// user's state as it is (active for a new one).
type SCIMUserInput struct {
	Email      string
	Name       string
	ExternalID string
	Active     *bool
	// PreferredLanguage, when given, sets the user's saved language
	// (D-languages): a tag of a supported language ("de", "de-CH") saves
	// it, any other value (or "") saves none.
	PreferredLanguage *string
}

// locale is the saved language a directory's preferredLanguage names.
func (in SCIMUserInput) locale() string {
	if in.PreferredLanguage == nil || len(*in.PreferredLanguage) > i18n.MaxTag {
		return ""
	}
	return i18n.Pick(i18n.Saved(*in.PreferredLanguage))
}

// SCIMUsers lists the users of the caller's organization meeting f, count
// of them from offset on, and how many meet f.
func (s *scimUsers) SCIMUsers(ctx context.Context, c *access.Caller, f *SCIMFilter, offset, count int) ([]*SCIMUserView, int, error) {
	d, err := s.dirs.of(ctx, c, scimList)
	if err != nil {
		return nil, 0, err
	}
	rows, total, err := s.u.store.SCIMUsers(ctx, d.orgID, f, offset, count)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*SCIMUserView, 0, len(rows))
	for i := range rows {
		out = append(out, s.scimView(&rows[i]))
	}
	return out, total, nil
}

// SCIMUser returns one of the organization's users. ENOTFOUND for any
// other id.
func (s *scimUsers) SCIMUser(ctx context.Context, c *access.Caller, id string) (*SCIMUserView, error) {
	d, err := s.dirs.of(ctx, c, scimGet)
	if err != nil {
		return nil, err
	}
	return s.user(ctx, d, id)
}

func (s *scimUsers) user(ctx context.Context, d directory, id string) (*SCIMUserView, error) {
	u, err := s.u.store.SCIMUser(ctx, d.orgID, id)
	if err != nil {
		return nil, err
	}
	return s.scimView(u), nil
}

// SCIMCreateUser creates a user of the caller's organization with the
// provisioned role (provisionedRole), and its invitation when the
// organization's policy allows passwords; inactive when the directory says
// so. ECONFLICT when the organization has the address or the externalId.
func (s *scimUsers) SCIMCreateUser(ctx context.Context, c *access.Caller, in SCIMUserInput) (*SCIMUserView, error) {
	d, err := s.dirs.of(ctx, c, scimCreateUser)
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
	policy, err := s.u.store.LoginPolicy(ctx, d.orgID)
	if err != nil {
		return nil, err
	}
	org, err := s.u.orgName(ctx, d.customerID)
	if err != nil {
		return nil, err
	}
	a := account{id: newID(), email: email, name: name, customerID: d.customerID}
	now := s.u.stamp()
	u := &platform.User{ID: a.id, OrgID: d.orgID, Email: email, Name: name, CreatedAt: now, UpdatedAt: now, Locale: in.locale()}
	suspended := in.Active != nil && !*in.Active
	err = s.u.audited(ctx, c, scimCreateUser.pick(d), a.acted(), func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		if suspended {
			if err := tx.SetUserSuspended(ctx, u.ID, now); err != nil {
				return err
			}
		}
		cu := &platform.ConsoleUser{UserID: u.ID, Role: provisionedRole(d), CustomerID: d.customerID, CreatedAt: now}
		if err := tx.PutConsoleUser(ctx, cu); err != nil {
			return err
		}
		if err := tx.SetSCIMExternalID(ctx, d.orgID, u.ID, externalID); err != nil {
			return err
		}
		if !policy.PasswordAllowed {
			return nil
		}
		return s.u.sendInvitation(ctx, tx, a, org)
	})
	if err != nil {
		return nil, err
	}
	return s.user(ctx, d, a.id)
}

// SCIMReplaceUser sets a user's name, externalId and, when in.Active is
// given, its state: false suspends it, true reactivates it. The address
// (userName) does not change: EINVALID when in.Email names another.
// Everything that can refuse the request is checked before anything is
// written (the name, a taken externalId, the state change the caller may
// not make, as on a customer's owner), so a refusal leaves the user as it
// was.
func (s *scimUsers) SCIMReplaceUser(ctx context.Context, c *access.Caller, id string, in SCIMUserInput) (*SCIMUserView, error) {
	d, err := s.dirs.of(ctx, c, scimRenameUser)
	if err != nil {
		return nil, err
	}
	cur, err := s.user(ctx, d, id)
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
	locale := cur.Locale
	if in.PreferredLanguage != nil {
		locale = in.locale()
	}
	renamed := name != cur.Name || externalID != cur.ExternalID || locale != cur.Locale
	if externalID != "" && externalID != cur.ExternalID {
		taken, _, err := s.u.store.SCIMUsers(ctx, d.orgID, &SCIMFilter{Op: "eq", Attr: "externalId", Value: externalID}, 0, 1)
		if err != nil {
			return nil, err
		}
		if len(taken) > 0 {
			return nil, platform.Errorf(platform.ECONFLICT, "another user of this organization has this externalId")
		}
	}
	if in.Active != nil && *in.Active == (cur.SuspendedAt != nil) {
		if err := s.setActive(ctx, c, d, id, *in.Active); err != nil {
			return nil, err
		}
	}
	if renamed {
		err := s.u.audited(ctx, c, scimRenameUser.pick(d), d.target("users", id), func(tx *store.Store) error {
			if err := tx.RenameUser(ctx, id, name, s.u.now()); err != nil {
				return err
			}
			if err := tx.SetUserLocale(ctx, id, locale, s.u.now()); err != nil {
				return err
			}
			return tx.SetSCIMExternalID(ctx, d.orgID, id, externalID)
		})
		if err != nil {
			return nil, err
		}
	}
	return s.user(ctx, d, id)
}

// setActive suspends (active false) or reactivates a user: a customer's
// as the console does (SuspendUser, ReactivateUser: the owner is
// protected), an internal one as its directory's own operation.
func (s *scimUsers) setActive(ctx context.Context, c *access.Caller, d directory, id string, active bool) error {
	var err error
	switch {
	case !d.internal() && active:
		_, err = s.u.ReactivateUser(ctx, c, id)
	case !d.internal():
		_, err = s.u.SuspendUser(ctx, c, id)
	default:
		op, at := scimReactivate.pick(d), time.Time{}
		if !active {
			op, at = scimSuspendUser.pick(d), s.u.stamp()
		}
		if err = s.u.infra(ctx, c, op); err == nil {
			err = s.u.audited(ctx, c, op, d.target("users", id), func(tx *store.Store) error {
				return tx.SetUserSuspended(ctx, id, at)
			})
		}
	}
	return err
}

// SCIMDeleteUser removes a user of the organization: every token and
// session of it ends (a customer's as DeleteUser does, the owner
// protected).
func (s *scimUsers) SCIMDeleteUser(ctx context.Context, c *access.Caller, id string) error {
	d, err := s.dirs.of(ctx, c, scimDeleteUser)
	if err != nil {
		return err
	}
	if _, err := s.user(ctx, d, id); err != nil {
		return err
	}
	if !d.internal() {
		return s.u.DeleteUser(ctx, c, id)
	}
	return s.u.audited(ctx, c, scimDeleteUser.pick(d), d.target("users", id), func(tx *store.Store) error {
		return tx.DeleteUser(ctx, id)
	})
}
