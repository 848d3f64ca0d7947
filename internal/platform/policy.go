package platform

import (
	"strings"
	"time"
)

// LoginPolicy is an organization's rules for signing in. The org scope of a
// login selects whose policy applies (R2.5-independent).
type LoginPolicy struct {
	OrgID               string `json:"orgId"`
	PasswordAllowed     bool   `json:"passwordAllowed"`
	SSOAllowed          bool   `json:"ssoAllowed"`
	MFAForced           bool   `json:"mfaForced"`
	SSOCreateUsers      bool   `json:"ssoCreateUsers"` // create a user on first SSO login when none matches
	PasswordMinLength   int    `json:"passwordMinLength"`
	PasswordCheckCommon bool   `json:"passwordCheckCommon"`
	LockoutMaxAttempts  int    `json:"lockoutMaxAttempts"`
	LockoutSeconds      int    `json:"lockoutSeconds"`
	// PasskeyAllowed lets the organization's users register passkeys and
	// sign in with them; PasskeyRequired (which needs PasskeyAllowed) then
	// refuses their password sign-in.
	PasskeyAllowed  bool `json:"passkeyAllowed"`
	PasskeyRequired bool `json:"passkeyRequired"`
	// The organization's security policy (D-org-policy): how long a session
	// at the identity provider lasts since its last use (idle) and since the
	// sign-in (absolute), in seconds, 0 for the platform's default; and which
	// second factors satisfy MFA (MFAForced): an authenticator app, a
	// passkey, an external provider that enforces MFA.
	SessionIdleSeconds int       `json:"sessionIdleSeconds"`
	SessionMaxSeconds  int       `json:"sessionMaxSeconds"`
	MFAByTOTP          bool      `json:"mfaByTotp"`
	MFAByPasskey       bool      `json:"mfaByPasskey"`
	MFABySSO           bool      `json:"mfaBySso"`
	UpdatedAt          time.Time `json:"updatedAt"`
}

// The bounds of a security policy's session lifetimes, and of an
// organization's minimum password length: the platform's, below which no
// organization may go, and the most an organization may ask for.
const (
	MinSessionSeconds         = 5 * 60
	MaxSessionSeconds         = 30 * 24 * 60 * 60
	PlatformPasswordMinLength = 12
	MaxPasswordMinLength      = 128
)

// DefaultLoginPolicy applies to organizations that have not set one.
func DefaultLoginPolicy(orgID string) *LoginPolicy {
	return &LoginPolicy{OrgID: orgID, PasswordAllowed: true, PasswordMinLength: 12, PasswordCheckCommon: true,
		LockoutMaxAttempts: 5, LockoutSeconds: 900, MFAByTOTP: true, MFAByPasskey: true, MFABySSO: true}
}

// Validate checks a policy against the number of external providers the
// organization has registered.
func (p *LoginPolicy) Validate(providers int) error {
	var problems []string
	if !p.PasswordAllowed && !p.SSOAllowed {
		problems = append(problems, "at least one of passwordAllowed and ssoAllowed must be true")
	}
	if p.PasskeyRequired && !p.PasskeyAllowed {
		problems = append(problems, "passkeyRequired needs passkeyAllowed")
	}
	if p.SSOAllowed && !p.PasswordAllowed && providers == 0 {
		problems = append(problems, "an SSO-only policy needs at least one external identity provider")
	}
	// the one password rule of every path that sets a policy (the console's
	// security policy and SSO settings, the provider's management API):
	// at least the platform's minimum, and the common and breached list on
	if p.PasswordMinLength < PlatformPasswordMinLength || p.PasswordMinLength > MaxPasswordMinLength {
		problems = append(problems, "passwordMinLength must be between the platform's minimum, 12, and 128")
	}
	if !p.PasswordCheckCommon {
		problems = append(problems, "passwordCheckCommon must be true: the list of common and breached passwords always applies")
	}
	if p.LockoutMaxAttempts < 1 || p.LockoutMaxAttempts > 100 {
		problems = append(problems, "lockoutMaxAttempts must be between 1 and 100")
	}
	if p.LockoutSeconds < 60 || p.LockoutSeconds > 86400 {
		problems = append(problems, "lockoutSeconds must be between 60 and 86400")
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"sessionIdleSeconds", p.SessionIdleSeconds}, {"sessionMaxSeconds", p.SessionMaxSeconds}} {
		if f.v != 0 && (f.v < MinSessionSeconds || f.v > MaxSessionSeconds) {
			problems = append(problems, f.name+" must be 0 (the platform's default) or between 300 and 2592000 seconds (5 minutes to 30 days)")
		}
	}
	if p.SessionIdleSeconds != 0 && p.SessionMaxSeconds != 0 && p.SessionIdleSeconds > p.SessionMaxSeconds {
		problems = append(problems, "sessionIdleSeconds must not exceed sessionMaxSeconds")
	}
	if p.MFAForced && !p.MFAByTOTP && !p.MFAByPasskey && !p.MFABySSO {
		problems = append(problems, "a policy that forces MFA needs at least one of mfaByTotp, mfaByPasskey and mfaBySso")
	}
	if p.MFAForced && !p.MFAByTOTP && !p.MFABySSO && !p.PasskeyAllowed {
		problems = append(problems, "MFA by passkey only needs passkeyAllowed")
	}
	if len(problems) > 0 {
		return &Error{Code: EINVALID, Message: "invalid login policy", Details: problems}
	}
	return nil
}

// ExternalIDP is an external OpenID provider an organization lets its users
// sign in with. The client secret is kept sealed; SecretSealed holds it.
type ExternalIDP struct {
	ID           string   `json:"id"`
	OrgID        string   `json:"orgId"`
	Name         string   `json:"name"`
	Issuer       string   `json:"issuer"`
	ClientID     string   `json:"clientId"`
	SecretSealed []byte   `json:"-"`
	Scopes       []string `json:"scopes"`
	// LinkTrusted: a platform_admin trusts this provider to vouch for
	// addresses on the customer's verified domains, so its identities link to
	// existing accounts with those addresses without the account's proof
	// (D-linking).
	LinkTrusted bool `json:"linkTrusted"`
	// MFAEnforced: the organization says this provider enforces MFA, so its
	// logins satisfy forced MFA when its amr does not say otherwise
	// (D-federated-mfa).
	MFAEnforced bool `json:"mfaEnforced"`
	// GroupsClaim names the ID token's claim listing the user's groups (a
	// dotted path reaches into an object); "" turns just-in-time groups off
	// (D-jit-groups). GroupMapping maps the claim's values to the
	// organization's groups, by id or name.
	GroupsClaim  string            `json:"groupsClaim"`
	GroupMapping map[string]string `json:"groupMapping"`
	CreatedAt    time.Time         `json:"createdAt"`
}

// Validate checks a provider before it is stored.
func (x *ExternalIDP) Validate() error {
	var problems []string
	if strings.TrimSpace(x.Name) == "" || len(x.Name) > 100 {
		problems = append(problems, "name is required (at most 100 characters)")
	}
	if err := CheckHTTPSOrLoopback("issuer", x.Issuer); err != nil {
		problems = append(problems, ErrorMessage(err))
	}
	if strings.TrimSpace(x.ClientID) == "" {
		problems = append(problems, "clientId is required")
	}
	if len(problems) > 0 {
		return &Error{Code: EINVALID, Message: "invalid identity provider", Details: problems}
	}
	return nil
}
