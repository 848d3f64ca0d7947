package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
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
	cust, err := s.customerFor(ctx, c, customerID, OpSSOSettings)
	if err != nil {
		return nil, err
	}
	return ssoSettings(ctx, s.store, cust.OrgID)
}

func ssoSettings(ctx context.Context, st *store.Store, orgID string) (*SSOSettings, error) {
	p, err := st.LoginPolicy(ctx, orgID)
	if err != nil {
		return nil, err
	}
	xs, err := st.ExternalIDPs(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &SSOSettings{PasswordAllowed: p.PasswordAllowed, SSOAllowed: p.SSOAllowed, SSOCreateUsers: p.SSOCreateUsers,
		MFAForced: p.MFAForced, PasskeyAllowed: p.PasskeyAllowed, PasskeyRequired: p.PasskeyRequired, IdentityProviders: len(xs)}, nil
}

// PutSSOSettings changes how a customer's users sign in. EINVALID when no
// method would remain, or SSO only without an identity provider.
func (s *identityProviders) PutSSOSettings(ctx context.Context, c *access.Caller, customerID string, in SSOSettingsInput) (*SSOSettings, error) {
	cust, err := s.customerFor(ctx, c, customerID, OpSSOSettingsPut)
	if err != nil {
		return nil, err
	}
	var out *SSOSettings
	err = s.audited(ctx, c, OpSSOSettingsPut, on(customerID, "customers", customerID, "sso"), func(tx *store.Store) error {
		p, err := tx.LoginPolicy(ctx, cust.OrgID)
		if err != nil {
			return err
		}
		xs, err := tx.ExternalIDPs(ctx, cust.OrgID)
		if err != nil {
			return err
		}
		for _, f := range []struct {
			in  *bool
			out *bool
		}{{in.PasswordAllowed, &p.PasswordAllowed}, {in.SSOAllowed, &p.SSOAllowed}, {in.SSOCreateUsers, &p.SSOCreateUsers},
			{in.MFAForced, &p.MFAForced}, {in.PasskeyAllowed, &p.PasskeyAllowed}, {in.PasskeyRequired, &p.PasskeyRequired}} {
			if f.in != nil {
				*f.out = *f.in
			}
		}
		if err := p.Validate(len(xs)); err != nil {
			return err
		}
		p.UpdatedAt = s.stamp()
		if err := tx.PutLoginPolicy(ctx, p); err != nil {
			return err
		}
		out, err = ssoSettings(ctx, tx, cust.OrgID)
		return err
	})
	return out, err
}
