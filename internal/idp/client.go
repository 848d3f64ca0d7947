package idp

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/platform"
)

// client adapts an application to op.Client. Every public client is a
// user-agent client with no secret, JWT access tokens and PKCE required
// (enforced in CreateAuthRequest and at the token endpoint). The access
// tokens are RFC 9068 JWTs the storage signs itself (accesstoken.go), which
// the library handles as bearer tokens.
type client struct {
	app      *platform.Application
	loginURL func(authRequestID string) string
	devMode  bool
	idTTL    time.Duration
}

var _ op.Client = (*client)(nil)

func (c *client) GetID() string                        { return c.app.ClientID }
func (c *client) RedirectURIs() []string               { return c.app.RedirectURIs }
func (c *client) PostLogoutRedirectURIs() []string     { return c.app.PostLogoutRedirectURIs }
func (c *client) LoginURL(id string) string            { return c.loginURL(id) }
func (c *client) AccessTokenType() op.AccessTokenType  { return op.AccessTokenTypeBearer }
func (c *client) IDTokenLifetime() time.Duration       { return c.idTTL }
func (c *client) DevMode() bool                        { return c.devMode }
func (c *client) IsScopeAllowed(s string) bool         { return allowedScope(s) }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }

func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

func (c *client) ApplicationType() op.ApplicationType {
	if c.app.Kind == platform.AppPublic {
		return op.ApplicationTypeUserAgent
	}
	return op.ApplicationTypeWeb
}

func (c *client) AuthMethod() oidc.AuthMethod { return oidc.AuthMethod(c.app.TokenAuthMethod()) }

func (c *client) ResponseTypes() []oidc.ResponseType {
	if c.app.Kind == platform.AppService {
		return nil
	}
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}

// GrantTypes: public and web applications use the code flow (PKCE S256
// always) and refresh tokens, public ones with the device flow also the
// device grant; service applications only client_credentials.
func (c *client) GrantTypes() []oidc.GrantType {
	if c.app.Kind == platform.AppService {
		return []oidc.GrantType{oidc.GrantTypeClientCredentials}
	}
	g := []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken}
	if c.app.DeviceFlow {
		g = append(g, oidc.GrantTypeDeviceCode)
	}
	return g
}
