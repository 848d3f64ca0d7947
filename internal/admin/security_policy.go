package admin

import (
	"context"
	"errors"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
)

// securityPolicies manages a customer organization's security policy
// (D-org-policy), part of the login policy of its organization at the
// identity provider: session lifetimes, the minimum password length (at
// least the platform's; the common and breached password list always
// applies), and which second factors satisfy its MFA requirement. The
// identity provider enforces it on the account's organization at every
// step.
type securityPolicies struct{ *core }

// SecurityPolicy is a customer's security policy as the API shows it.
type SecurityPolicy struct {
	// SessionIdleSeconds and SessionMaxSeconds: how long a session at the
	// identity provider lasts since its last use and since the sign-in; 0
	// is the platform's default (no idle limit; 12 hours).
	SessionIdleSeconds int `json:"sessionIdleSeconds"`
	SessionMaxSeconds  int `json:"sessionMaxSeconds"`
	PasswordMinLength  int `json:"passwordMinLength"`
	// PlatformPasswordMinLength is the least PasswordMinLength may be.
	PlatformPasswordMinLength int `json:"platformPasswordMinLength"`
	// MFAForced is the sign-in settings' (sso); the three below say which
	// second factors satisfy it.
	MFAForced    bool `json:"mfaForced"`
	MFAByTOTP    bool `json:"mfaByTotp"`
	MFAByPasskey bool `json:"mfaByPasskey"`
	MFABySSO     bool `json:"mfaBySso"`
}

// SecurityPolicyInput changes a security policy; nil fields stay.
type SecurityPolicyInput struct {
	SessionIdleSeconds *int  `json:"sessionIdleSeconds,omitempty"`
	SessionMaxSeconds  *int  `json:"sessionMaxSeconds,omitempty"`
	PasswordMinLength  *int  `json:"passwordMinLength,omitempty"`
	MFAByTOTP          *bool `json:"mfaByTotp,omitempty"`
	MFAByPasskey       *bool `json:"mfaByPasskey,omitempty"`
	MFABySSO           *bool `json:"mfaBySso,omitempty"`
}

func newSecurityPolicy(p *platform.LoginPolicy, _ int) *SecurityPolicy {
	return &SecurityPolicy{SessionIdleSeconds: p.SessionIdleSeconds, SessionMaxSeconds: p.SessionMaxSeconds,
		PasswordMinLength: p.PasswordMinLength, PlatformPasswordMinLength: platform.PlatformPasswordMinLength,
		MFAForced: p.MFAForced, MFAByTOTP: p.MFAByTOTP, MFAByPasskey: p.MFAByPasskey, MFABySSO: p.MFABySSO}
}

// SecurityPolicy returns a customer's security policy.
func (s *securityPolicies) SecurityPolicy(ctx context.Context, c *access.Caller, customerID string) (*SecurityPolicy, error) {
	return loginPolicyView(ctx, s.core, c, OpSecurityPolicy, customerID, newSecurityPolicy)
}

// PutSecurityPolicy changes a customer's security policy. EINVALID, with
// one message per problem: a lifetime outside 300 seconds to 30 days (0:
// the platform's), an idle lifetime beyond the absolute one, a minimum
// password length below the platform's or above 128, MFA forced with no
// second factor left to satisfy it (or passkeys only where passkeys are
// not allowed).
func (s *securityPolicies) PutSecurityPolicy(ctx context.Context, c *access.Caller, customerID string, in SecurityPolicyInput) (*SecurityPolicy, error) {
	return changeLoginPolicy(ctx, s.core, c, OpSecurityPolicyPut, customerID, "security-policy",
		func(p *platform.LoginPolicy, providers int) error {
			for _, f := range []struct{ in, out *int }{{in.SessionIdleSeconds, &p.SessionIdleSeconds},
				{in.SessionMaxSeconds, &p.SessionMaxSeconds}, {in.PasswordMinLength, &p.PasswordMinLength}} {
				set(f.out, f.in)
			}
			for _, f := range []struct{ in, out *bool }{{in.MFAByTOTP, &p.MFAByTOTP}, {in.MFAByPasskey, &p.MFAByPasskey},
				{in.MFABySSO, &p.MFABySSO}} {
				set(f.out, f.in)
			}
			p.PasswordCheckCommon = true // the common and breached list always applies
			if err := p.Validate(providers); err != nil {
				var pe *platform.Error
				if !errors.As(err, &pe) {
					return err
				}
				return &platform.Error{Code: platform.EINVALID, Message: "invalid security policy", Details: pe.Details}
			}
			return nil
		}, newSecurityPolicy)
}
