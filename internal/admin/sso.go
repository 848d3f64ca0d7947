package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
)

// SSOSettings is how a customer's users sign in: the login policy of its
// organization at the identity provider, and how many identity providers
// are enabled.
type SSOSettings struct {
	PasswordAllowed   bool `json:"passwordAllowed"`
	SSOAllowed        bool `json:"ssoAllowed"`
	SSOCreateUsers    bool `json:"ssoCreateUsers"`
	MFAForced         bool `json:"mfaForced"`
	PasskeyAllowed    bool `json:"passkeyAllowed"`
	PasskeyRequired   bool `json:"passkeyRequired"` // password sign-in refused
	IdentityProviders int  `json:"identityProviders"`
}

// SSOSettingsInput changes sign-in; nil fields stay. SSO only (passwords
// off) needs an enabled identity provider.
type SSOSettingsInput struct {
	PasswordAllowed *bool `json:"passwordAllowed,omitempty"`
	SSOAllowed      *bool `json:"ssoAllowed,omitempty"`
	SSOCreateUsers  *bool `json:"ssoCreateUsers,omitempty"`
	MFAForced       *bool `json:"mfaForced,omitempty"`
	PasskeyAllowed  *bool `json:"passkeyAllowed,omitempty"`
	PasskeyRequired *bool `json:"passkeyRequired,omitempty"`
}

// SSOSettings returns how a customer's users sign in.
func (s *identityProviders) SSOSettings(ctx context.Context, c *access.Caller, customerID string) (*SSOSettings, error) {
	return loginPolicyView(ctx, s.core, c, OpSSOSettings, customerID, newSSOSettings)
}

func newSSOSettings(p *platform.LoginPolicy, providers int) *SSOSettings {
	return &SSOSettings{PasswordAllowed: p.PasswordAllowed, SSOAllowed: p.SSOAllowed, SSOCreateUsers: p.SSOCreateUsers,
		MFAForced: p.MFAForced, PasskeyAllowed: p.PasskeyAllowed, PasskeyRequired: p.PasskeyRequired, IdentityProviders: providers}
}

// PutSSOSettings changes how a customer's users sign in. EINVALID when no
// method would remain, or SSO only without an identity provider.
func (s *identityProviders) PutSSOSettings(ctx context.Context, c *access.Caller, customerID string, in SSOSettingsInput) (*SSOSettings, error) {
	return changeLoginPolicy(ctx, s.core, c, OpSSOSettingsPut, customerID, "sso",
		func(p *platform.LoginPolicy, providers int) error {
			for _, f := range []struct{ in, out *bool }{{in.PasswordAllowed, &p.PasswordAllowed}, {in.SSOAllowed, &p.SSOAllowed},
				{in.SSOCreateUsers, &p.SSOCreateUsers}, {in.MFAForced, &p.MFAForced}, {in.PasskeyAllowed, &p.PasskeyAllowed},
				{in.PasskeyRequired, &p.PasskeyRequired}} {
				set(f.out, f.in)
			}
			return p.Validate(providers)
		}, newSSOSettings)
}
