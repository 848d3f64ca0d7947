package idp

import (
	"context"
	"time"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
)

// The security events the provider records in the audit log
// (D-audit-trail): each through the transaction of what it records where
// there is one (record: both commit or neither, and a failed record is the
// transaction's error), otherwise right after it (recordAfter: a failed
// record is logged and changes no answer, so neither a sign-in's outcome
// nor the answer for an address tells anything of it). An event about a
// user is its customer's (CustomerOf); a failed sign-in for an address
// without an account is no customer's.

// Reasons a sign-in (or a confirmation) failed. A customer sees its own
// users' failures only: unknown_user is in the platform-wide stream alone,
// and a wrong password of a known account is invalid_credentials.
const (
	reasonInvalidCredentials = "invalid_credentials"
	reasonUnknownUser        = "unknown_user"
	reasonAccountLocked      = "account_locked"
	reasonAttemptsInFlight   = "attempts_in_flight" // the account's attempts left were all being checked past the wait
	reasonSuspended          = "account_suspended"
	reasonPasswordNotAllowed = "password_not_allowed"
	reasonPasskeyRequired    = "passkey_required"
	reasonInvalidCode        = "invalid_code"
)

// Methods a user proves itself with, and the sign-in's steps.
const (
	methodPassword     = "password"
	methodTOTP         = "totp"
	methodRecoveryCode = "recovery_code"
	methodPasskey      = "passkey"
	methodSSO          = "sso"
	factorFirst        = "first_factor"
	factorSecond       = "second_factor"
)

// record stores e through db, the transaction of what it records.
func (p *core) record(ctx context.Context, db audit.Appender, e audit.Entry) error {
	return audit.Record(ctx, db, p.now(), e)
}

// recordAfter stores e on its own, after what it records; a failure is
// logged.
func (p *core) recordAfter(ctx context.Context, e audit.Entry) {
	audit.RecordAfter(ctx, p.store, p.now(), e)
}

// about is an event of kind by u about its own account, which u's
// customer sees.
func about(kind audit.Kind, u *platform.User) audit.Entry {
	return audit.Entry{Kind: kind, ActorID: u.ID, Target: userTarget(u.ID), CustomerOf: u.ID}
}

// userTarget names a user as an event's target (the store adds its address).
func userTarget(id string) audit.Target { return audit.Target{Type: "user", ID: id} }

// appTarget names an application (the store adds its name).
func appTarget(clientID string) audit.Target {
	if clientID == "" {
		return audit.Target{}
	}
	return audit.Target{Type: "application", ID: clientID}
}

// signInEvent is a sign-in to clientID's application by u, or, when no
// account answers to the address (u nil), by email alone, which no
// customer sees.
func signInEvent(u *platform.User, email, clientID string) audit.Entry {
	e := audit.Entry{Kind: audit.SignIn, ActorEmail: email, Target: appTarget(clientID)}
	if u != nil {
		e.ActorID, e.ActorEmail, e.CustomerOf = u.ID, "", u.ID
	}
	return e
}

// signInFailed records a failed sign-in right after it: by u (nil for an
// address without an account, whose reason is then unknown_user), for
// clientID's application, why, and with which method at which step.
func (p *core) signInFailed(ctx context.Context, u *platform.User, email, clientID, reason, method, step string) {
	e := signInEvent(u, email, clientID)
	e.Failed, e.Reason, e.Details = true, reason, audit.Details{Method: method, Step: step}
	p.recordAfter(ctx, e)
}

// reauthFailed records, right after it, a failed confirmation of u with
// method.
func (p *core) reauthFailed(ctx context.Context, u *platform.User, method, reason string) {
	e := about(audit.Reauthentication, u)
	e.Failed, e.Reason, e.Details.Method = true, reason, method
	p.recordAfter(ctx, e)
}

// lockedOut records, right after the failure that locked it, that u's
// account is locked until until.
func (p *core) lockedOut(ctx context.Context, u *platform.User, until time.Time) {
	e := about(audit.AccountLocked, u)
	e.Reason, e.Details.Until = "failed_attempts", until.UTC().Format(time.RFC3339)
	p.recordAfter(ctx, e)
}

// sessionsEnded is the event of n of userID's provider sessions ending,
// why, by the user itself (signing out, or out elsewhere) or by its
// browser's next sign-in as another user (which is not named: it may be
// another customer's).
func sessionsEnded(userID, reason string, n int) audit.Entry {
	return audit.Entry{Kind: audit.SessionEnded, ActorID: userID, Target: userTarget(userID), CustomerOf: userID,
		Reason: reason, Details: audit.Details{Sessions: n}}
}

// firstMethod names the first factor of a sign-in's amr: password,
// sso or passkey.
func firstMethod(amr []string) string {
	switch firstFactor(amr) {
	case "pwd":
		return methodPassword
	case "fed":
		return methodSSO
	case "hwk":
		return methodPasskey
	}
	return ""
}

// Why sessions end.
const (
	endedSignOut      = "sign_out"
	endedOtherUser    = "other_user_signed_in"
	endedSignOutOther = "signed_out_elsewhere"
)
