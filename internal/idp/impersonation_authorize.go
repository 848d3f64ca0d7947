package idp

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// An impersonation reaches the customer's applications through the
// authorization endpoint (D-impersonation): an ordinary authorization-code
// request (PKCE S256, state, nonce, exact redirect URI) with the platform
// parameter impersonation=<id> completes without a sign-in of the user
// when the browser's provider session is the impersonation's support user,
// the impersonation runs (exchanged, approved where an approver decides,
// not ended, not expired, still allowed by the customer) and the client is
// an instance application of the user's customer. The code's tokens are
// the user's (sub) with act naming the support user, on the
// impersonation's grant (so ending it revokes them), no refresh token, and
// none of them outlives the impersonation. Any failed condition is
// access_denied to the redirect URI: never a sign-in as the user.

// ParamImpersonation is the authorization request's parameter naming the
// impersonation it asks to act in.
const ParamImpersonation = "impersonation"

// impersonationParamKey carries the parameter from the authorization
// endpoint's request to CreateAuthRequest.
type impersonationParamKey struct{}

// impersonationParam sits in front of the authorization endpoint (after a
// pushed request is resolved into its parameters) and hands the request's
// impersonation parameter to CreateAuthRequest.
func (p *endpoints) impersonationParam(next http.Handler) http.Handler {
	return carryParam(ParamImpersonation, impersonationParamKey{}, next)
}

// impersonationOfRequest is the impersonation parameter in ctx; sent is
// false when the request has none.
func impersonationOfRequest(ctx context.Context) (id string, sent bool) {
	id, sent = ctx.Value(impersonationParamKey{}).(string)
	return id, sent
}

// errImpersonationRefused is every refusal of an impersonated
// authorization request, alike, so nothing is learned of why.
func errImpersonationRefused() *oidc.Error {
	return oidc.ErrAccessDenied().WithDescription("the impersonation cannot be used here")
}

// impersonate completes the authorization request a for impersonation id
// when every condition holds, or answers access_denied. A refusal of a
// signed-in browser is a security event (access.denied, the support user
// as actor, the impersonation as target, why as reason), which the
// impersonation's customer sees; a browser without a session is refused
// as any request without a sign-in, unrecorded.
func (s *storage) impersonate(ctx context.Context, id string, a *store.AuthRequest) *oidc.Error {
	sess := sessionFromContext(ctx)
	if sess == nil {
		return errImpersonationRefused()
	}
	m, u, reason := s.impersonationFor(ctx, sess, id, a)
	if reason != "" {
		e := audit.Entry{Kind: audit.AccessDenied, Failed: true, Reason: reason, ActorID: sess.UserID,
			Target: audit.Target{Type: "impersonation"}}
		if platform.ValidID(id) { // never a request's text of any length or kind
			e.Target.ID = id
		}
		if m != nil {
			e.CustomerID = m.CustomerID
		}
		s.recordAfter(ctx, e)
		return errImpersonationRefused()
	}
	// no refresh token: nothing of the impersonation may outlive it
	a.Scopes = slices.DeleteFunc(slices.Clone(a.Scopes), func(s string) bool { return s == oidc.ScopeOfflineAccess })
	a.UserID, a.AuthTime, a.AMR, a.Done = u.ID, sess.AuthTime, sess.AMR, true
	a.ImpersonationID, a.ActorID = m.ID, m.ActorID
	return nil
}

// Why an impersonated authorization request was refused (the audit
// event's reason; the client learns none of them).
const (
	refusedUnknown     = "impersonation_unknown"
	refusedNotRunning  = "impersonation_not_running"
	refusedNotTheActor = "not_the_support_user"
	refusedApplication = "not_the_customers_application"
	refusedUser        = "user_unavailable"
	refusedOrg         = "organization_mismatch"
)

// impersonationFor checks the conditions of acting in impersonation id
// for the browser session sess on request a: the impersonation (once it
// is known) and its user, or why not.
func (s *storage) impersonationFor(ctx context.Context, sess *store.Session, id string, a *store.AuthRequest) (*store.Impersonation, *platform.User, string) {
	if !platform.ValidID(id) {
		return nil, nil, refusedUnknown
	}
	m, err := s.store.Impersonation(ctx, id)
	if err != nil {
		return nil, nil, refusedUnknown
	}
	running, err := s.runs(ctx, m)
	switch {
	case err != nil || !running:
		return m, nil, refusedNotRunning
	case m.ActorID != sess.UserID:
		return m, nil, refusedNotTheActor
	case a.ClientID == s.cfg.ConsoleClientID || !s.customerApplication(ctx, a.ClientID, m.CustomerID):
		return m, nil, refusedApplication
	}
	u, err := s.user(ctx, m.UserID)
	if err != nil {
		return m, nil, refusedUser
	}
	if org := orgScope(a.Scopes); org != "" && org != u.OrgID {
		return m, nil, refusedOrg
	}
	return m, u, ""
}

// runningImpersonation loads impersonation id when it runs (runs).
// ENOTFOUND otherwise.
func (p *storage) runningImpersonation(ctx context.Context, id string) (*store.Impersonation, error) {
	m, err := p.store.Impersonation(ctx, id)
	if err != nil {
		return nil, err
	}
	running, err := p.runs(ctx, m)
	if err != nil {
		return nil, err
	}
	if !running {
		return nil, platform.Errorf(platform.ENOTFOUND, "impersonation not running")
	}
	return m, nil
}

// runs reports whether impersonation m runs: its subject token exchanged,
// approved where an approver decides, not ended, not expired, and its
// customer still allows impersonation.
func (p *storage) runs(ctx context.Context, m *store.Impersonation) (bool, error) {
	if m.ExchangedAt == nil || m.EndedAt != nil || !m.ExpiresAt.After(p.now()) ||
		(m.Approval != "" && m.Approval != store.ApprovalApproved) {
		return false, nil
	}
	return p.store.CustomerImpersonation(ctx, m.CustomerID)
}

// customerApplication reports whether clientID is the application of an
// instance of customer customerID.
func (p *storage) customerApplication(ctx context.Context, clientID, customerID string) bool {
	conn, err := p.store.ConnectionByClientID(ctx, clientID)
	if err != nil {
		return false
	}
	in, err := p.store.InstanceRow(ctx, conn.InstanceID)
	return err == nil && in.CustomerID == customerID
}

// impersonatedTokens checks, when the token request req completes an
// impersonated authorization, that its impersonation still runs, and
// answers it; nil for every other request.
func (s *storage) impersonatedTokens(ctx context.Context, req any) (*store.Impersonation, error) {
	a, ok := req.(authRequest)
	if !ok || a.ImpersonationID == "" {
		return nil, nil
	}
	m, err := s.runningImpersonation(ctx, a.ImpersonationID)
	if err != nil || m.UserID != a.UserID || m.ActorID != a.ActorID {
		return nil, oidc.ErrInvalidGrant().WithDescription("the impersonation has ended")
	}
	return m, nil
}

// within shortens access token t, of impersonation m, to end with it, on
// its grant.
func within(t *store.AccessToken, m *store.Impersonation) {
	t.FamilyID, t.GrantExpiresAt = m.ID, m.ExpiresAt
	if t.ExpiresAt.After(m.ExpiresAt) {
		t.ExpiresAt = m.ExpiresAt
	}
}

// tokenDeadlineKey carries, at the token endpoint, when the impersonation
// of the presented code ends: the id_token's lifetime ends with it.
type tokenDeadlineKey struct{}

// impersonatedCode sits in front of the op library at the token endpoint:
// for a code of an impersonated authorization it puts the impersonation's
// end in the context, where the client's id_token lifetime is read
// (storage.client). Looking the code up spends nothing.
func (p *endpoints) impersonatedCode(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := grantValue(r, oidc.GrantTypeCode, "code")
		if code == "" {
			next.ServeHTTP(w, r)
			return
		}
		a, err := p.store.AuthRequestByCodeHash(r.Context(), hashSecret(code), p.now())
		if err != nil || a.ImpersonationID == "" {
			next.ServeHTTP(w, r)
			return
		}
		m, err := p.store.Impersonation(r.Context(), a.ImpersonationID)
		if err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "the impersonation has ended")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenDeadlineKey{}, m.ExpiresAt)))
	})
}

// idTokenLifetime is ttl, shortened to end at the deadline of the token
// request in ctx when it has one (at least a second: the token request
// itself refuses an impersonation that has ended). The op library adds the
// lifetime to its own clock a moment later and writes exp in whole
// seconds, so the lifetime ends at the deadline's whole second: a token
// signed up to a second later still expires by the deadline.
func (p *storage) idTokenLifetime(ctx context.Context, ttl time.Duration) time.Duration {
	end, ok := ctx.Value(tokenDeadlineKey{}).(time.Time)
	if !ok {
		return ttl
	}
	return max(min(ttl, end.Truncate(time.Second).Sub(p.now())), time.Second)
}

// endRevokedImpersonation ends the impersonation whose grant the revoked
// access token t is of, when one runs: revoking an impersonation's token
// (the tenant web app's "End") ends it everywhere, recorded with the
// support user as who acted.
func (s *storage) endRevokedImpersonation(ctx context.Context, t *store.AccessToken) error {
	m, err := s.store.Impersonation(ctx, t.FamilyID)
	if err != nil || m.UserID != t.UserID || m.EndedAt != nil {
		return nil // no impersonation's token
	}
	return s.store.InTx(ctx, func(tx *store.Store) error {
		ended, err := tx.EndImpersonation(ctx, m.ID, m.ActorID, s.now())
		if err != nil || !ended {
			return err
		}
		return s.record(ctx, tx, audit.Entry{Kind: audit.TokenRevoked, ActorID: m.UserID, ImpersonatorID: m.ActorID,
			Target: appTarget(t.ClientID), CustomerOf: m.UserID, Reason: "impersonation_ended",
			Details: audit.Details{GrantID: m.ID}})
	})
}
