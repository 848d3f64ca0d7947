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

// passwordAccounts keeps the accounts whose organization allows password
// sign-in: an account of an organization that signs in only through its
// identity provider (or only with passkeys and SSO) is never a password's
// account, whatever organization the request names or leaves out.
func (p *core) passwordAccounts(ctx context.Context, users []*platform.User) ([]*platform.User, error) {
	out := make([]*platform.User, 0, len(users))
	for _, u := range users {
		policy, err := p.store.LoginPolicy(ctx, u.OrgID)
		if err != nil {
			return nil, err
		}
		if policy.PasswordAllowed {
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

// methodAllowed reports whether policy still allows a sign-in that began
// as amr did. A password session of an organization that has turned to
// SSO only, or a passkey session of one that stopped allowing passkeys,
// is not.
func (p *core) methodAllowed(policy *platform.LoginPolicy, amr []string) bool {
	switch firstFactor(amr) {
	case "pwd":
		return policy.PasswordAllowed
	case "fed":
		return policy.SSOAllowed
	case "hwk":
		return p.passkeysAllowed(policy)
	}
	return false
}

// sessionAllowed reports whether the account's policy allows the way the
// browser session signed in; a session it does not allow satisfies
// nothing: no login transaction and no account page.
func (p *core) sessionAllowed(ctx context.Context, s *store.Session, u *platform.User) (bool, *platform.LoginPolicy) {
	policy, err := p.store.LoginPolicy(ctx, u.OrgID)
	if err != nil {
		return false, nil
	}
	return p.methodAllowed(policy, s.AMR), policy
}

// passkeysAllowed reports whether an organization's users may use passkeys
// on this provider.
func (p *core) passkeysAllowed(policy *platform.LoginPolicy) bool {
	return p.passkeysOn && policy.PasskeyAllowed
}

// passkeyRequired reports whether the user's organization refuses their
// password sign-in.
func (p *core) passkeyRequired(ctx context.Context, u *platform.User) (bool, error) {
	policy, err := p.store.LoginPolicy(ctx, u.OrgID)
	if err != nil {
		return false, err
	}
	return p.passkeysAllowed(policy) && policy.PasskeyRequired, nil
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
	allowed, policy := p.sessionAllowed(ctx, sess, u)
	if !allowed {
		return false // e.g. a password session of an organization that has turned to SSO only
	}
	if policy.MFAForced && !slices.Contains(sess.AMR, "mfa") {
		return false // a session without a second factor does not satisfy a policy that forces one
	}
	if policy.PasskeyRequired && !slices.Contains(sess.AMR, "hwk") {
		return false // nor one without a passkey a policy that requires passkeys
	}
	return true
}
