package idp

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

var errLoginFailed = errors.New("login failed")

// checkPassword finds the account an address signs in to (within orgID when
// set) and verifies the password. Every attempt costs exactly one argon2id
// verification, whether the address is unknown, has one account, has
// accounts in several organizations or is locked, so neither the answer nor
// its cost tells them apart (D-lockout). The attempt is counted before the
// hash is checked (ReserveLoginAttempt), so concurrent attempts cannot
// overtake the lockout: once the limit is reached every further attempt is
// refused, with the right password too. Lockout limits come from the
// account's organization's policy. The account's organization decides
// whether a password signs in at all, whatever the request's org scope
// (D-account-policy): an account of an organization without password
// sign-in is no password's account, and the attempt answers and costs
// exactly what a wrong password does.
func (p *Provider) checkPassword(ctx context.Context, email, password, orgID string) (*platform.User, error) {
	users, err := p.store.UsersByEmail(ctx, email, orgID)
	if err != nil {
		return nil, err
	}
	if users, err = p.passwordAccounts(ctx, users); err != nil {
		return nil, err
	}
	u := p.signInAccount(users)
	if u == nil || u.PasswordHash == "" {
		if _, err := p.verifyPassword(ctx, password, p.dummyHash); errors.Is(err, errHashBusy) {
			return nil, err
		}
		return nil, errLoginFailed
	}
	policy, err := p.store.LoginPolicy(ctx, u.OrgID)
	if err != nil {
		return nil, err
	}
	now := p.now()
	until := now.Add(time.Duration(policy.LockoutSeconds) * time.Second)
	n, reserved, err := p.store.ReserveLoginAttempt(ctx, u.ID, policy.LockoutMaxAttempts, until, now)
	if err != nil {
		return nil, err
	}
	if !reserved { // locked: refused whatever the password, at the same cost
		if _, err := p.verifyPassword(ctx, password, p.dummyHash); errors.Is(err, errHashBusy) {
			return nil, err
		}
		return nil, errLoginFailed
	}
	ok, err := p.verifyPassword(ctx, password, u.PasswordHash)
	if errors.Is(err, errHashBusy) {
		return nil, err
	} else if err != nil {
		slog.ErrorContext(ctx, "stored password hash is malformed", "user_id", u.ID)
	}
	if !ok {
		if n == policy.LockoutMaxAttempts {
			slog.WarnContext(ctx, "account locked after failed logins", "user_id", u.ID, "until", until)
			p.accountLocked(ctx, u) // the holder gets an unlock-by-reset link
		}
		return nil, errLoginFailed
	}
	if suspended, err := p.store.UserSuspended(ctx, u.ID); err != nil {
		return nil, err
	} else if suspended { // answers like a wrong password
		return nil, errLoginFailed
	}
	if err := p.store.ResetLoginFailures(ctx, u.ID); err != nil {
		return nil, err
	}
	return u, nil
}

// signInAccount picks the one account a password sign-in is for. Within an
// organization (the gateway always names one for customer users) an address
// has at most one. Without one, the administrator organization's account
// comes first (the console's flow for internal users), then the address's
// oldest account; an address's other accounts are signed in to through the
// gateway, which names their organization.
func (p *Provider) signInAccount(users []*platform.User) *platform.User {
	if len(users) == 0 {
		return nil
	}
	return slices.MinFunc(users, func(a, b *platform.User) int {
		if (a.OrgID == p.cfg.AdminOrgID) != (b.OrgID == p.cfg.AdminOrgID) {
			if a.OrgID == p.cfg.AdminOrgID {
				return -1
			}
			return 1
		}
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// verifyPassword is the one place a password hash is computed during
// sign-in, in a slot of the hash queue (errHashBusy when none frees up in
// time); tests count its calls (p.hashes) and hold them (p.hashGate).
func (p *Provider) verifyPassword(ctx context.Context, password, phc string) (ok bool, err error) {
	if qerr := p.hashQueue.do(ctx, func() {
		if p.hashes != nil {
			p.hashes.Add(1)
		}
		if p.hashGate != nil {
			p.hashGate(password)
		}
		ok, err = VerifyPassword(password, phc)
	}); qerr != nil {
		return false, qerr
	}
	return ok, err
}
