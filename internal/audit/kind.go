// Package audit is the platform's security audit trail (D-audit-trail): the
// one schema of an audit event, aligned with OCSF, which the REST API,
// GraphQL, the customers' webhooks and the export all answer (Event); the
// kinds of event and their OCSF category, class and activity (Kinds); the
// recording of a security event through the transaction of what it
// records (Record); and the retention of the log (Retain).
package audit

import "strings"

// Kind names one kind of event. Webhooks subscribe to kinds, the log
// filters by them, and each has its place in OCSF's classification.
type Kind string

// The kinds of event. The security events of the identity provider:
const (
	// SignIn is a sign-in, succeeded (a session began) or failed (reason).
	SignIn Kind = "sign_in"
	// Reauthentication is the confirmation of a signed-in user before an
	// account change (D-reauth), succeeded or failed.
	Reauthentication Kind = "reauthentication"
	// SessionEnded is a provider session that ended, and why.
	SessionEnded Kind = "session.ended"
	// TokenIssued is a new grant's first tokens (not its refreshes).
	TokenIssued Kind = "token.issued"
	// TokenReuseDetected is a used refresh token or authorization code
	// presented again: its grant is revoked.
	TokenReuseDetected Kind = "token.reuse_detected"
	// TokenRevoked is a grant its user revoked on the account page
	// (D-your-sessions): the application's tokens stop working.
	TokenRevoked Kind = "token.revoked"
	// AccountLocked is an account locked by failed attempts.
	AccountLocked Kind = "account.locked"
	// AccountUnlocked is a lock lifted: at its expiry or by a password reset.
	AccountUnlocked Kind = "account.unlocked"
	// PasswordChanged is a password changed on the account page.
	PasswordChanged Kind = "password.changed"
	// PasswordResetRequested is a reset link sent (or asked for an address
	// without an account: platform-wide only).
	PasswordResetRequested Kind = "password.reset_requested"
	// PasswordReset is a password set through a reset link.
	PasswordReset Kind = "password.reset"
	// InvitationAccepted is an invitation's password set: the account is on.
	InvitationAccepted Kind = "invitation.accepted"
	// EmailChanged is a new address confirmed.
	EmailChanged Kind = "email.changed"
	// MFAEnrolled is an authenticator app enrolled; MFARemoved one removed.
	MFAEnrolled Kind = "mfa.enrolled"
	MFARemoved  Kind = "mfa.removed"
	// RecoveryCodesRegenerated is a new set of recovery codes.
	RecoveryCodesRegenerated Kind = "recovery_codes.regenerated"
	// PasskeyAdded, PasskeyRenamed, PasskeyRemoved: the account's passkeys.
	PasskeyAdded   Kind = "passkey.added"
	PasskeyRenamed Kind = "passkey.renamed"
	PasskeyRemoved Kind = "passkey.removed"
	// PasskeyCloneDetected is a passkey whose signature counter did not
	// advance: it is stopped until its user removes it.
	PasskeyCloneDetected Kind = "passkey.clone_detected"
	// GroupsSynced is a sign-in through a provider with just-in-time
	// groups that changed the user's memberships (D-jit-groups).
	GroupsSynced Kind = "groups.synced"
	// ClientRegistered, ClientUpdated, ClientDeleted: a client registered
	// with a customer's initial access token (RFC 7591), its registration
	// changed or deleted by the client (RFC 7592; D-dynamic-registration).
	ClientRegistered Kind = "client.registered"
	ClientUpdated    Kind = "client.updated"
	ClientDeleted    Kind = "client.deleted"
)

// The events of the administration APIs:
const (
	// AdminWrite is an allowed administration write (D-audit-events):
	// its action, operation and resource say what changed.
	AdminWrite Kind = "admin.write"
	// AccessDenied is a refused request of the administration or data APIs,
	// or an impersonated authorization request the identity provider
	// refused a signed-in browser (D-impersonation).
	AccessDenied Kind = "access.denied"
)

// OCSF categories, classes and activities the kinds fall in.
const (
	categoryIAM = 3 // Identity & Access Management
	categoryApp = 6 // Application Activity

	classAccountChange  = 3001
	classAuthentication = 3002
	classAPIActivity    = 6003
)

var categoryNames = map[int]string{categoryIAM: "Identity & Access Management", categoryApp: "Application Activity"}

var classNames = map[int]string{classAccountChange: "Account Change", classAuthentication: "Authentication",
	classAPIActivity: "API Activity"}

// activityNames are the activities of each class (OCSF 1.3).
var activityNames = map[int]map[int]string{
	classAccountChange: {1: "Create", 2: "Enable", 3: "Password Change", 4: "Password Reset", 5: "Disable", 6: "Delete",
		9: "Lock", 10: "MFA Factor Enable", 11: "MFA Factor Disable", 12: "Unlock", 99: "Other"},
	classAuthentication: {1: "Logon", 2: "Logoff", 3: "Authentication Ticket", 4: "Service Ticket Request", 99: "Other"},
	classAPIActivity:    {1: "Create", 2: "Read", 3: "Update", 4: "Delete", 99: "Other"},
}

// place is a kind's class and activity in OCSF; activity 0 takes the
// activity from the operation (admin writes).
type place struct{ class, activity int }

var kinds = []struct {
	kind Kind
	at   place
}{
	{SignIn, place{classAuthentication, 1}},
	{Reauthentication, place{classAuthentication, 1}},
	{SessionEnded, place{classAuthentication, 2}},
	{TokenIssued, place{classAuthentication, 4}},
	{TokenReuseDetected, place{classAuthentication, 99}},
	{TokenRevoked, place{classAuthentication, 2}},
	{PasskeyCloneDetected, place{classAuthentication, 99}},
	{AccountLocked, place{classAccountChange, 9}},
	{AccountUnlocked, place{classAccountChange, 12}},
	{PasswordChanged, place{classAccountChange, 3}},
	{PasswordResetRequested, place{classAccountChange, 99}},
	{PasswordReset, place{classAccountChange, 4}},
	{InvitationAccepted, place{classAccountChange, 2}},
	{EmailChanged, place{classAccountChange, 99}},
	{MFAEnrolled, place{classAccountChange, 10}},
	{MFARemoved, place{classAccountChange, 11}},
	{RecoveryCodesRegenerated, place{classAccountChange, 99}},
	{PasskeyAdded, place{classAccountChange, 10}},
	{PasskeyRenamed, place{classAccountChange, 99}},
	{PasskeyRemoved, place{classAccountChange, 11}},
	{GroupsSynced, place{classAccountChange, 99}},
	{ClientRegistered, place{classAPIActivity, 1}},
	{ClientUpdated, place{classAPIActivity, 3}},
	{ClientDeleted, place{classAPIActivity, 4}},
	{AdminWrite, place{classAPIActivity, 0}},
	{AccessDenied, place{classAPIActivity, 99}},
}

var places = func() map[Kind]place {
	m := map[Kind]place{}
	for _, k := range kinds {
		m[k.kind] = k.at
	}
	return m
}()

// Kinds lists every kind of event, security events first.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i, k := range kinds {
		out[i] = k.kind
	}
	return out
}

// Known reports whether k is one of Kinds.
func (k Kind) Known() bool {
	_, ok := places[k]
	return ok
}

// Security reports whether k is a security event of the identity provider
// (not an administration write or a denial).
func (k Kind) Security() bool { return k.Known() && k != AdminWrite && k != AccessDenied }

// classify answers the OCSF category, class and activity of an event of
// kind k; operation is an admin write's declared operation, whose verb
// names the activity.
func classify(k Kind, operation string) (category, class, activity int) {
	at, ok := places[k]
	if !ok {
		return 0, 0, 0 // unknown
	}
	category = categoryIAM
	if at.class == classAPIActivity {
		category = categoryApp
	}
	if at.activity == 0 {
		return category, at.class, operationActivity(operation)
	}
	return category, at.class, at.activity
}

// operationActivity is the API Activity of a declared operation, from the
// words of its verb ("tenant.update", "user.invitation_revoke",
// "grant.delete_customer", "user.session_end"): a removal is Delete, a creation Create, a
// reading Read, anything else Update. A new operation is classified by
// its name, with nothing to add here.
func operationActivity(operation string) int {
	_, verb, _ := strings.Cut(operation, ".")
	words := strings.Split(verb, "_")
	has := func(set ...string) bool {
		for _, w := range words {
			for _, s := range set {
				if w == s {
					return true
				}
			}
		}
		return false
	}
	switch {
	case verb == "":
		return 99
	case has("delete", "remove", "revoke", "end"):
		return 4
	case has("create", "invite", "issue", "report", "add"):
		return 1
	case has("get", "list", "read", "resolve", "value", "log", "export"):
		return 2
	}
	return 3
}
