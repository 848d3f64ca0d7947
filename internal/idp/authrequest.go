package idp

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/store"
)

// authRequest adapts a stored login transaction to op.AuthRequest.
type authRequest struct{ *store.AuthRequest }

var _ op.AuthRequest = authRequest{}

func (a authRequest) GetID() string          { return a.ID }
func (a authRequest) GetACR() string         { return acrOf(a.AMR) }
func (a authRequest) GetAMR() []string       { return a.AMR }
func (a authRequest) GetAudience() []string  { return []string{a.ClientID} }
func (a authRequest) GetAuthTime() time.Time { return a.AuthTime }
func (a authRequest) GetClientID() string    { return a.ClientID }
func (a authRequest) GetNonce() string       { return a.Nonce }
func (a authRequest) GetRedirectURI() string { return a.RedirectURI }
func (a authRequest) GetScopes() []string    { return a.Scopes }
func (a authRequest) GetState() string       { return a.State }
func (a authRequest) GetSubject() string     { return a.UserID }
func (a authRequest) Done() bool             { return a.AuthRequest.Done }
func (a authRequest) GetResponseType() oidc.ResponseType {
	return oidc.ResponseType(a.ResponseType)
}
func (a authRequest) GetResponseMode() oidc.ResponseMode {
	return oidc.ResponseMode(a.ResponseMode)
}

// GetActor is the act claim of an impersonated authorization's id_token:
// the support user (D-impersonation); nil for every other.
func (a authRequest) GetActor() *oidc.ActorClaims {
	if a.ActorID == "" {
		return nil
	}
	return &oidc.ActorClaims{Subject: a.ActorID}
}
func (a authRequest) GetCodeChallenge() *oidc.CodeChallenge {
	return &oidc.CodeChallenge{Challenge: a.CodeChallenge, Method: oidc.CodeChallengeMethod(a.CodeChallengeMethod)}
}

// refreshRequest adapts a stored refresh token to op.RefreshTokenRequest.
type refreshRequest struct {
	*store.RefreshToken
	scopes []string
}

var _ op.RefreshTokenRequest = (*refreshRequest)(nil)

func (r *refreshRequest) GetAMR() []string            { return r.AMR }
func (r *refreshRequest) GetAudience() []string       { return r.Audience }
func (r *refreshRequest) GetAuthTime() time.Time      { return r.AuthTime }
func (r *refreshRequest) GetClientID() string         { return r.ClientID }
func (r *refreshRequest) GetScopes() []string         { return r.scopes }
func (r *refreshRequest) GetSubject() string          { return r.UserID }
func (r *refreshRequest) SetCurrentScopes(s []string) { r.scopes = s }
