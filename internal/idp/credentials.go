package idp

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// factors checks what a user knows and holds: passwords (argon2id through
// the hash queue), one-time codes, recovery codes, and the lockout with its
// reset links. The sign-in and account pages share it.
type factors struct {
	*core
	hashQueue *hashQueue            // bounds the verifications in flight
	dummyHash string                // verified against when no user matches, so both cost the same
	hashes    *atomic.Int64         // when set (tests), counts password verifications
	hashGate  func(password string) // when set (tests), runs inside each verification
}

var errLoginFailed = errors.New("login failed")

// checkPassword finds the account an address signs in to (within orgID when
// set) and verifies the password. Every attempt costs exactly one argon2id
// verification, whether the address is unknown, has one account, has
// accounts in several organizations or is locked, so neither the answer nor
// its cost tells them apart (D-lockout). The attempt is counted around its
// check (counted): reserved before the hash, so concurrent attempts cannot
// overtake the lockout, and a failure only when the password is wrong, so
// concurrent right ones all succeed; once the limit is reached every
// further attempt is refused, with the right password too. Lockout limits come from the
// account's organization's policy. The account's organization decides
// whether a password signs in at all, whatever the request's org scope
// (D-account-policy): an account of an organization without password
// sign-in is no password's account, and the attempt answers and costs
// exactly what a wrong password does.
func (p *factors) checkPassword(ctx context.Context, email, password, orgID, clientID string) (*platform.User, error) {
	all, err := p.store.UsersByEmail(ctx, email, orgID)
	if err != nil {
		return nil, err
	}
	users, err := p.passwordAccounts(ctx, all)
	if err != nil {
		return nil, err
	}
	u := p.signInAccount(users)
	if u == nil || u.PasswordHash == "" {
		if _, err := p.verifyPassword(ctx, password, p.dummyHash); errors.Is(err, errHashBusy) {
			return nil, err
		}
		// who the failure is recorded for: the account the address has
		// where it has one (its customer sees it), else the address alone
		// (platform-wide: no customer learns whether an address exists)
		switch who := p.signInAccount(all); {
		case u != nil: // an account without a password yet (an open invitation)
			p.signInFailed(ctx, u, email, clientID, reasonInvalidCredentials, methodPassword, factorFirst)
		case who != nil: // an account of an organization without password sign-in
			p.signInFailed(ctx, who, email, clientID, reasonPasswordNotAllowed, methodPassword, factorFirst)
		default:
			p.signInFailed(ctx, nil, email, clientID, reasonUnknownUser, methodPassword, factorFirst)
		}
		return nil, errLoginFailed
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return nil, err
	}
	a, err := p.counted(ctx, u, policy, func() (bool, error) {
		ok, err := p.verifyPassword(ctx, password, u.PasswordHash)
		if errors.Is(err, errHashBusy) {
			return false, err
		} else if err != nil {
			slog.ErrorContext(ctx, "stored password hash is malformed", "user_id", u.ID)
		}
		return ok, nil
	})
	if err != nil {
		return nil, err
	}
	if !a.ran { // locked, or busy past the wait: refused whatever the password, at the same cost
		if _, err := p.verifyPassword(ctx, password, p.dummyHash); errors.Is(err, errHashBusy) {
			return nil, err
		}
		reason := reasonAccountLocked
		if !a.locked {
			reason = reasonAttemptsInFlight
		}
		p.signInFailed(ctx, u, email, clientID, reason, methodPassword, factorFirst)
		return nil, errLoginFailed
	}
	if !a.ok {
		p.signInFailed(ctx, u, email, clientID, reasonInvalidCredentials, methodPassword, factorFirst)
		if a.lockedAt {
			slog.WarnContext(ctx, "account locked after failed logins", "user_id", u.ID, "until", a.until)
			p.lockedOut(ctx, u, a.until)
			p.accountLocked(ctx, u) // the holder gets an unlock-by-reset link
		}
		return nil, errLoginFailed
	}
	if suspended, err := p.store.UserSuspended(ctx, u.ID); err != nil {
		return nil, err
	} else if suspended { // answers like a wrong password
		p.signInFailed(ctx, u, email, clientID, reasonSuspended, methodPassword, factorFirst)
		return nil, errLoginFailed
	}
	p.rehash(ctx, u, password)
	return u, nil
}

// rehash replaces u's password hash, which password just matched, with one
// made with the provider's parameters when it was made with others (a hash
// from before D-argon2-params): once per account, on its next sign-in, in
// a slot of the hash queue. A busy queue or a failed write leaves the old
// hash, which keeps verifying with its own parameters, for the next sign-in;
// a password set in between is kept (RehashPassword compares).
func (p *factors) rehash(ctx context.Context, u *platform.User, password string) {
	if hashedWith(u.PasswordHash, p.cfg.Password) {
		return
	}
	var hash string
	var err error
	if qerr := p.hashQueue.do(ctx, func() { hash, err = HashPassword(password, p.cfg.Password) }); qerr != nil || err != nil {
		return
	}
	if _, err := p.store.RehashPassword(ctx, u.ID, u.PasswordHash, hash); err != nil {
		slog.ErrorContext(ctx, "store the rehashed password", "user_id", u.ID, "err", err)
	}
}

// expiredLocksPerPass bounds the locks one maintenance pass lifts; more
// wait for the next pass (or for their account's next attempt).
const expiredLocksPerPass = 500

// LiftExpiredLocks lifts the locks that ran out, at most
// expiredLocksPerPass of them, each recorded (account.unlocked,
// lock_expired) with its lifting: the unlock at the lock's expiry, which
// nothing else would record until the account's next attempt.
func (p *Provider) LiftExpiredLocks(ctx context.Context) error {
	users, err := p.store.ExpiredLocks(ctx, p.now(), expiredLocksPerPass)
	if err != nil {
		return err
	}
	for _, u := range users {
		if err := p.factors.expireLock(ctx, u); err != nil {
			return err
		}
	}
	return nil
}

// expireLock lifts u's lock when it has run out, recorded as an unlock
// (account.unlocked, lock_expired) in the same transaction; of several
// attempts at once, one lifts it and records it. The count of failures
// starts again, as ReserveLoginAttempt would start it.
func (p *factors) expireLock(ctx context.Context, u *platform.User) error {
	if u.LockedUntil.IsZero() || u.LockedUntil.After(p.now()) {
		return nil
	}
	return p.store.InTx(ctx, func(tx *store.Store) error {
		lifted, err := tx.LiftExpiredLock(ctx, u.ID, p.now())
		if err != nil || !lifted {
			return err
		}
		e := about(audit.AccountUnlocked, u)
		e.Reason = "lock_expired"
		return p.record(ctx, tx, e)
	})
}

// signInAccount picks the one account a password sign-in is for. Within an
// organization (the gateway always names one for customer users) an address
// has at most one. Without one, the administrator organization's account
// comes first (the console's flow for internal users), then the address's
// oldest account; an address's other accounts are signed in to through the
// gateway, which names their organization.
func (p *factors) signInAccount(users []*platform.User) *platform.User {
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
func (p *factors) verifyPassword(ctx context.Context, password, phc string) (ok bool, err error) {
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

// sendResetLinks sends each account of an address that has a password and
// is not suspended a reset link (1 hour), within the per-address and
// per-account limits. kind names the message: a reset asked for, or the
// unlock offer after a lockout.
func (p *factors) sendResetLinks(ctx context.Context, email, why string) error {
	now := p.now()
	if ok, _, err := p.store.Allow(ctx, "reset-address:"+digest(email), forgotLimit, time.Hour, now); err != nil || !ok {
		return err
	}
	users, err := p.store.UsersByEmail(ctx, email, "")
	if err != nil {
		return err
	}
	if len(users) == 0 && why == store.TokenReset { // platform-wide: no customer learns of the address
		p.recordAfter(ctx, audit.Entry{Kind: audit.PasswordResetRequested, ActorEmail: email, Failed: true, Reason: reasonUnknownUser})
	}
	for _, u := range users {
		if err := p.sendResetLink(ctx, u, why); err != nil {
			return err
		}
	}
	return nil
}

// sendResetLink sends one account a reset link, unless it has no password
// yet (an open or revoked invitation is not bypassed), is suspended, or
// asked too often. An account of an organization without password sign-in
// gets no link (D-account-policy): a reset asked for is answered with a
// message that the organization signs in with its identity provider; an
// unlock offer, nothing (the lock ends by itself, or an administrator lifts
// it).
func (p *factors) sendResetLink(ctx context.Context, u *platform.User, why string) error {
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return err
	}
	ssoOnly := !policy.passwords()
	if (u.PasswordHash == "" && !ssoOnly) || (ssoOnly && why == "unlock") {
		return nil
	}
	if suspended, err := p.store.UserSuspended(ctx, u.ID); err != nil || suspended {
		return err
	}
	now := p.now()
	if ok, _, err := p.store.Allow(ctx, "reset-account:"+u.ID, forgotLimit, time.Hour, now); err != nil || !ok {
		return err
	}
	org := ""
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		org = o.Name
	}
	if ssoOnly {
		m := mail.Message{Kind: mail.KindSSOOnly, To: u.Email, UserID: u.ID, CustomerID: p.customerOf(ctx, u.OrgID), Org: org, Name: u.Name,
			Lang: mailLanguage(ctx, u)}
		if p.cfg.ConsoleURL != "" {
			m.Link = p.cfg.ConsoleURL + "/"
		}
		return p.store.InTx(ctx, func(tx *store.Store) error {
			e := about(audit.PasswordResetRequested, u)
			e.Failed, e.Reason = true, reasonPasswordNotAllowed
			if err := p.record(ctx, tx, e); err != nil {
				return err
			}
			return (&mail.Outbox{Sealer: p.sealer, Now: p.now}).Queue(ctx, tx, m)
		})
	}
	kind := mail.KindReset
	if why == "unlock" {
		kind = mail.KindUnlock
	}
	token, hash := mail.NewToken()
	return p.store.InTx(ctx, func(tx *store.Store) error {
		err := tx.CreateAccountToken(ctx, &store.AccountToken{Hash: hash, Kind: store.TokenReset, UserID: u.ID, CreatedAt: now,
			ExpiresAt: now.Add(mail.ResetLifetime)}, false)
		if err != nil {
			return err
		}
		if why != "unlock" { // an unlock offer is part of the lockout's record
			if err := p.record(ctx, tx, about(audit.PasswordResetRequested, u)); err != nil {
				return err
			}
		}
		return (&mail.Outbox{Sealer: p.sealer, Now: p.now}).Queue(ctx, tx, mail.Message{Kind: kind, To: u.Email, UserID: u.ID,
			CustomerID: p.customerOf(ctx, u.OrgID), Org: org, Name: u.Name, Link: mail.Link(p.cfg.Issuer, PathPasswordReset, token),
			Lang: mailLanguage(ctx, u)})
	})
}

// failedLoginMessage counts a failed sign-in against the address (whether
// or not it has an account) and, past the lockout's number of attempts,
// answers that too many were made and that instructions were sent if the
// address has an account: the same for every address, so it tells nothing.
func (p *factors) failedLoginMessage(ctx context.Context, email string) string {
	ok, _, err := p.store.Allow(ctx, "login-fail:"+digest(email), p.cfg.MaxFailedLogins, p.cfg.LockoutDuration, p.now())
	if err != nil || ok {
		return msgLoginFailed
	}
	return msgTooMany
}

// accountLocked sends the holder of an account that was just locked an
// unlock-by-reset link, off the request.
func (p *factors) accountLocked(ctx context.Context, u *platform.User) {
	p.later(ctx, func(ctx context.Context) error { return p.sendResetLink(ctx, u, "unlock") })
}

// checkSecondFactor verifies a TOTP or recovery code, counting failures
// toward the same lockout as passwords (D-lockout).
func (p *factors) checkSecondFactor(ctx context.Context, u *platform.User, code string, recovery bool) error {
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return err
	}
	if len(code) > 64 {
		return errBadCode
	}
	// The attempt is counted around the check, so concurrent guesses
	// cannot overtake the lockout (see checkPassword).
	a, err := p.counted(ctx, u, policy, func() (bool, error) {
		var err error
		if recovery {
			err = p.useRecoveryCode(ctx, u.ID, code)
		} else {
			err = p.checkTOTP(ctx, u.ID, code)
		}
		if errors.Is(err, errBadCode) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		return err
	}
	if a.lockedAt {
		// Someone who knows the password is guessing codes: the holder
		// gets the unlock-by-reset link, which also replaces the password.
		slog.WarnContext(ctx, "account locked after failed codes", "user_id", u.ID, "until", a.until)
		p.lockedOut(ctx, u, a.until)
		p.accountLocked(ctx, u)
	}
	if !a.ok {
		return errBadCode
	}
	return nil
}
