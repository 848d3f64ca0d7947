package idp

import (
	"context"
	"log/slog"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// An attempt at an account's password or code is counted toward the
// lockout (D-lockout) in two steps around its check: it takes one of the
// attempts the account has left before the check runs
// (store.ReserveLoginAttempt), so concurrent wrong answers can never exceed
// the lockout, and gives it back when the check ends
// (store.FinishLoginAttempt): a right answer counts nothing, a wrong one
// becomes a failure, and the last failure locks. While every attempt left
// is in flight the next one waits its turn (a right answer among them gives
// its attempt back), so concurrent sign-ins with the right password all
// succeed and count no failure.

// staleAttempt is how long checks in flight are remembered with none
// reserved since: those a process left behind when it ended are forgotten.
const staleAttempt = time.Minute

// attempt is what a counted check came to.
type attempt struct {
	ran      bool      // false: the account is locked, or busy past the wait; the check did not run
	locked   bool      // not ran because the account is locked
	ok       bool      // the check's answer
	lockedAt bool      // this wrong answer locked the account
	until    time.Time // the lock's end, when lockedAt
}

// counted runs check as one attempt at u's credential under policy's
// lockout. check answers whether the credential was right; its error ends
// the attempt uncounted (the hash queue was full, the store failed) and is
// returned.
func (p *factors) counted(ctx context.Context, u *platform.User, policy loginRules, check func() (bool, error)) (attempt, error) {
	if err := p.expireLock(ctx, u); err != nil {
		return attempt{}, err
	}
	r, err := p.reserveAttempt(ctx, u.ID, policy.LockoutMaxAttempts)
	if err != nil || r != store.AttemptReserved {
		return attempt{locked: r == store.AttemptLocked}, err
	}
	ok, err := check()
	done := context.WithoutCancel(ctx) // the attempt is given back even when the request ends
	if err != nil {
		if rerr := p.store.ReleaseLoginAttempt(done, u.ID); rerr != nil {
			slog.ErrorContext(ctx, "release sign-in attempt", "user_id", u.ID, "err", rerr)
		}
		return attempt{}, err
	}
	until := p.now().Add(time.Duration(policy.LockoutSeconds) * time.Second)
	n, err := p.store.FinishLoginAttempt(done, u.ID, ok, policy.LockoutMaxAttempts, until)
	if err != nil {
		return attempt{}, err
	}
	return attempt{ran: true, ok: ok, lockedAt: !ok && n == policy.LockoutMaxAttempts, until: until}, nil
}

// reserveAttempt reserves an attempt at userID's credential, waiting while
// the account's attempts left are all in flight, up to the hash queue's
// wait (the same patience as for a hash slot) or the request's end; past
// it the answer is AttemptBusy.
func (p *factors) reserveAttempt(ctx context.Context, userID string, maxAttempts int) (store.AttemptReservation, error) {
	deadline := time.Now().Add(p.hashQueue.wait)
	pause := 2 * time.Millisecond
	for {
		now := p.now()
		r, err := p.store.ReserveLoginAttempt(ctx, userID, maxAttempts, now, now.Add(-staleAttempt))
		if err != nil || r != store.AttemptBusy {
			return r, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(min(pause, left)):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}
