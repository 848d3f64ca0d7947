package graph_test

import (
	"context"
	"sync"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// memApps stands in for the identity provider's management API (an
// external system, exercised against a real provider in server/): it keeps
// the applications it registers in memory.
type memApps struct {
	mu   sync.Mutex
	apps map[string]*admin.App
	// secrets holds the current secret of each confidential application.
	secrets map[string]string
}

func (m *memApps) Create(_ context.Context, in admin.AppInput) (*admin.App, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.apps == nil {
		m.apps = map[string]*admin.App{}
	}
	a := &admin.App{AppID: "app-" + uuid.NewString(), ClientID: "client-" + uuid.NewString(), RedirectURIs: in.RedirectURIs}
	m.apps[a.AppID] = a
	if in.AuthMethod != "" && in.AuthMethod != platform.AuthNone {
		if m.secrets == nil {
			m.secrets = map[string]string{}
		}
		m.secrets[a.AppID] = "secret-" + uuid.NewString()
		return &admin.App{AppID: a.AppID, ClientID: a.ClientID, RedirectURIs: a.RedirectURIs, ClientSecret: m.secrets[a.AppID]}, nil
	}
	return a, nil
}

func (m *memApps) Update(_ context.Context, appID string, in admin.AppInput) (*admin.App, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.apps[appID]
	if a == nil {
		a = &admin.App{AppID: appID, ClientID: "client-" + appID}
		if m.apps == nil {
			m.apps = map[string]*admin.App{}
		}
		m.apps[appID] = a
	}
	a.RedirectURIs = in.RedirectURIs
	return a, nil
}

func (m *memApps) Delete(_ context.Context, appID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.apps, appID)
	return nil
}

func (m *memApps) Rotate(_ context.Context, appID string) (*admin.App, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := &admin.App{AppID: appID, ClientID: "client-" + uuid.NewString()}
	if old := m.apps[appID]; old != nil {
		a.RedirectURIs = old.RedirectURIs
	}
	if m.apps == nil {
		m.apps = map[string]*admin.App{}
	}
	m.apps[appID] = a
	return a, nil
}

// RotateSecret answers a confidential application's new secret; a public
// one has none (ECONFLICT, as the provider answers).
func (m *memApps) RotateSecret(_ context.Context, appID string) (*admin.App, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.apps[appID]
	if a == nil {
		return nil, platform.Errorf(platform.ENOTFOUND, "the identity provider has no such application")
	}
	if _, ok := m.secrets[appID]; !ok {
		return nil, platform.Errorf(platform.ECONFLICT, "the identity provider refused the application: this application authenticates without a secret (none)")
	}
	m.secrets[appID] = "secret-" + uuid.NewString()
	return &admin.App{AppID: a.AppID, ClientID: a.ClientID, RedirectURIs: a.RedirectURIs, ClientSecret: m.secrets[appID]}, nil
}

// secret answers an application's current secret ("" for a public one).
func (m *memApps) secret(appID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.secrets[appID]
}
