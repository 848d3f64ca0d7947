package idp

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The account's own organization decides how the account signs in, at every
// step (D-account-policy): the password form with or without an org scope,
// the reuse of a browser session, the account page, invitation and reset
// links. The org scope of a request only narrows which accounts it is for.
//
// This file is the one home of what a login policy allows: every part of
// the provider reads an organization's policy through loginRules and asks
// it through its methods, never through the policy's switches. The
// management API (mgmt.go) is where policies and external providers are
// written and checked (platform.LoginPolicy.Validate).

// loginRules is an organization's login policy as this provider applies
// it. Its other settings (password length, lockout) are read as they are.
type loginRules struct {
	*platform.LoginPolicy
	passkeysOn bool // the provider can be a WebAuthn relying party
}

// loginRules reads the login policy of an organization.
func (p *core) loginRules(ctx context.Context, orgID string) (loginRules, error) {
	policy, err := p.store.LoginPolicy(ctx, orgID)
	if err != nil {
		return loginRules{}, err
	}
	return loginRules{LoginPolicy: policy, passkeysOn: p.passkeysOn}, nil
}

// passwords: the organization's accounts have passwords, which the account
// pages, invitation and reset links set and the sign-in form accepts.
func (r loginRules) passwords() bool { return r.PasswordAllowed }

// passwordForm: the sign-in page offers the password form (passwords,
// unless the policy requires passkeys).
func (r loginRules) passwordForm() bool { return r.PasswordAllowed && !r.PasskeyRequired }

// passwordEnough: a password alone satisfies the policy (it forces neither
// a second factor nor passkeys).
func (r loginRules) passwordEnough() bool { return !r.MFAForced && !r.PasskeyRequired }

// passkeys: the organization's users may use passkeys on this provider.
func (r loginRules) passkeys() bool { return r.passkeysOn && r.PasskeyAllowed }

// passkeysRequired: the organization refuses its users' password sign-in
// in favour of passkeys.
func (r loginRules) passkeysRequired() bool { return r.passkeys() && r.PasskeyRequired }

// sso: the organization's users sign in through its external providers.
func (r loginRules) sso() bool { return r.SSOAllowed }

// ssoCreatesUsers: a first SSO sign-in that matches no account creates one.
func (r loginRules) ssoCreatesUsers() bool { return r.SSOCreateUsers }

// mfaForced: every sign-in needs a second factor.
func (r loginRules) mfaForced() bool { return r.MFAForced }

// allows reports whether the policy still allows a sign-in that began as
// amr did. A password session of an organization that has turned to SSO
// only, or a passkey session of one that stopped allowing passkeys, is
// not.
func (r loginRules) allows(amr []string) bool {
	switch firstFactor(amr) {
	case "pwd":
		return r.passwords()
	case "fed":
		return r.sso()
	case "hwk":
		return r.passkeys()
	}
	return false
}

// satisfiedBy reports whether a sign-in that went as amr did satisfies the
// policy now: a way it allows, a second factor when it forces one, a
// passkey when it requires passkeys.
func (r loginRules) satisfiedBy(amr []string) bool {
	switch {
	case !r.allows(amr):
		return false // e.g. a password session of an organization that has turned to SSO only
	case r.MFAForced && !slices.Contains(amr, "mfa"):
		return false // a session without a second factor does not satisfy a policy that forces one
	case r.PasskeyRequired && !slices.Contains(amr, "hwk"):
		return false // nor one without a passkey a policy that requires passkeys
	}
	return true
}

// passwordAccounts keeps the accounts whose organization allows password
// sign-in: an account of an organization that signs in only through its
// identity provider (or only with passkeys and SSO) is never a password's
// account, whatever organization the request names or leaves out.
func (p *core) passwordAccounts(ctx context.Context, users []*platform.User) ([]*platform.User, error) {
	out := make([]*platform.User, 0, len(users))
	for _, u := range users {
		rules, err := p.loginRules(ctx, u.OrgID)
		if err != nil {
			return nil, err
		}
		if rules.passwords() {
			out = append(out, u)
		}
	}
	return out, nil
}

// firstFactor is how a sign-in began, read from its amr: a password
// ("pwd"), an external provider ("fed"), a passkey alone ("hwk"), or ""
// when the amr names none of them.
func firstFactor(amr []string) string {
	for _, m := range []string{"pwd", "fed"} {
		if slices.Contains(amr, m) {
			return m
		}
	}
	if slices.Contains(amr, "hwk") {
		return "hwk"
	}
	return ""
}

// sessionAllowed reports whether the account's policy allows the way the
// browser session signed in; a session it does not allow satisfies
// nothing: no login transaction and no account page.
func (p *core) sessionAllowed(ctx context.Context, s *store.Session, u *platform.User) (bool, loginRules) {
	rules, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return false, loginRules{}
	}
	return rules.allows(s.AMR), rules
}

// passkeyRequired reports whether the user's organization refuses their
// password sign-in.
func (p *core) passkeyRequired(ctx context.Context, u *platform.User) (bool, error) {
	rules, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return false, err
	}
	return rules.passkeysRequired(), nil
}

// sessionSatisfies reports whether a browser session may answer a login
// transaction without asking the user: the user of the id_token_hint, same
// organization as the org scope, same address as login_hint, within
// max_age, and signed in a way the account's own policy allows now
// (D-account-policy).
func (p *core) sessionSatisfies(ctx context.Context, sess *store.Session, a *store.AuthRequest) bool {
	if a.HintUserID != "" && a.HintUserID != sess.UserID {
		return false // OIDC Core 3.1.2.2: the session must be the hinted user's
	}
	u, err := p.user(ctx, sess.UserID)
	if err != nil {
		return false
	}
	if org := orgScope(a.Scopes); org != "" && u.OrgID != org {
		return false
	}
	if a.LoginHint != "" && platform.NormalizeEmail(a.LoginHint) != u.Email {
		return false
	}
	if a.MaxAge != nil && p.now().Sub(sess.AuthTime) > time.Duration(*a.MaxAge)*time.Second {
		return false
	}
	if !acrMet(a.ACR, sess.AMR) {
		return false // step-up: the session lacks the factor acr_values demand (D-step-up)
	}
	rules, err := p.loginRules(ctx, u.OrgID)
	return err == nil && rules.satisfiedBy(sess.AMR)
}
