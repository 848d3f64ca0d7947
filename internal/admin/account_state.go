package admin

import (
	"time"

	"github.com/platform/platform/internal/store"
)

// The statuses of an account, as the users lists and a user's page show
// them (D-support-tools); the first that holds wins.
const (
	StatusSuspended = "suspended" // suspended by an administrator
	StatusLocked    = "locked"    // a lockout by failed sign-ins is in force, until LockedUntil
	StatusInvited   = "invited"   // no credential yet: the invitation is pending (open or lapsed)
	StatusActive    = "active"
)

// AccountState is a user's account as it is now: its status, and what
// support acts on (the lockout, the second factors).
type AccountState struct {
	Status      string     `json:"status"`
	SuspendedAt *time.Time `json:"suspendedAt"`
	// LockedUntil is when the lockout in force ends; null when none is.
	LockedUntil *time.Time `json:"lockedUntil"`
	// FailedSignIns counts the failed sign-ins since the last success or
	// unlock (the lockout's count).
	FailedSignIns int `json:"failedSignIns"`
	// AuthenticatorApp: the user has a confirmed authenticator app (with
	// recovery codes); Passkeys: how many passkeys.
	AuthenticatorApp bool `json:"authenticatorApp"`
	Passkeys         int  `json:"passkeys"`
}

// accountState is st's view at now.
func accountState(st store.AccountState, now time.Time) AccountState {
	v := AccountState{Status: StatusActive, SuspendedAt: timeOrNull(st.SuspendedAt), FailedSignIns: st.FailedLogins,
		AuthenticatorApp: st.TOTP, Passkeys: st.Passkeys}
	if st.LockedUntil.After(now) {
		v.LockedUntil = &st.LockedUntil
	}
	switch {
	case v.SuspendedAt != nil:
		v.Status = StatusSuspended
	case v.LockedUntil != nil:
		v.Status = StatusLocked
	case st.Pending:
		v.Status = StatusInvited
	}
	return v
}

// invitedState is the state of an account just invited.
func invitedState() AccountState { return AccountState{Status: StatusInvited} }
