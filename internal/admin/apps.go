package admin

import (
	"context"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// App is an application registered at the identity provider.
type App struct {
	AppID        string
	ClientID     string
	RedirectURIs []string
	// ClientSecret is a confidential application's new secret, answered
	// once by Create and RotateSecret.
	ClientSecret string
}

// AppInput registers or updates an application: a public client with PKCE,
// or a confidential web application (Kind web, AuthMethod a secret method;
// set on Create only, an update keeps them).
type AppInput struct {
	Kind                   string
	AuthMethod             string
	Name                   string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
	// BackchannelLogoutURI receives the provider's logout tokens.
	BackchannelLogoutURI string
	// RequireDPoP: tokens only with a DPoP proof (D-dpop).
	RequireDPoP bool
}

// Apps manages instance applications at the identity provider
// (R2.5-instance-app). HTTPApps calls the provider's management API.
type Apps interface {
	Create(ctx context.Context, in AppInput) (*App, error)
	Update(ctx context.Context, appID string, in AppInput) (*App, error)
	Delete(ctx context.Context, appID string) error
	Rotate(ctx context.Context, appID string) (*App, error)
	// RotateSecret gives a confidential application a new client secret
	// (the old one stops at once); ECONFLICT for an application without a
	// secret method.
	RotateSecret(ctx context.Context, appID string) (*App, error)
}

// noApps refuses: no identity provider is configured.
type noApps struct{}

var errNoApps = platform.Errorf(platform.EINTERNAL, "no identity provider management client is configured")

func (noApps) Create(context.Context, AppInput) (*App, error)         { return nil, errNoApps }
func (noApps) Update(context.Context, string, AppInput) (*App, error) { return nil, errNoApps }
func (noApps) Delete(context.Context, string) error                   { return errNoApps }
func (noApps) Rotate(context.Context, string) (*App, error)           { return nil, errNoApps }
func (noApps) RotateSecret(context.Context, string) (*App, error)     { return nil, errNoApps }

// Vault resolves where an instance's database is.
type Vault interface {
	DatabaseURI(ctx context.Context, instanceID string) (string, error)
}

// storeVault reads the URI recorded with the instance.
type storeVault struct{ st *store.Store }

func (v storeVault) DatabaseURI(ctx context.Context, instanceID string) (string, error) {
	return v.st.InstanceDatabaseURI(ctx, instanceID)
}
