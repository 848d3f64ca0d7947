package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/platform/platform/internal/platform"
)

// HTTPApps manages applications through the identity provider's management
// API (docs/idp-management-api.md), authenticated as a service client with
// the client-credentials grant; tokens are cached until they expire.
type HTTPApps struct {
	base   string
	client *http.Client
}

var _ Apps = (*HTTPApps)(nil)

// NewHTTPApps returns an Apps for the provider at issuer, signing in as the
// service client clientID with secret.
func NewHTTPApps(issuer, clientID, secret string) *HTTPApps {
	issuer = strings.TrimRight(issuer, "/")
	cc := clientcredentials.Config{ClientID: clientID, ClientSecret: secret, TokenURL: issuer + "/oauth/v2/token",
		AuthStyle: oauth2.AuthStyleInHeader}
	base := &http.Client{Timeout: 15 * time.Second}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, base)
	c := cc.Client(ctx)
	c.Timeout = 15 * time.Second
	return &HTTPApps{base: issuer + "/management/v1", client: c}
}

type mgmtApp struct {
	AppID        string   `json:"appId"`
	ClientID     string   `json:"clientId"`
	RedirectURIs []string `json:"redirectUris"`
	ClientSecret string   `json:"clientSecret"`
}

type mgmtAppRequest struct {
	Kind                   string   `json:"kind,omitempty"`
	AuthMethod             string   `json:"authMethod,omitempty"`
	Name                   string   `json:"name"`
	RedirectURIs           []string `json:"redirectUris"`
	PostLogoutRedirectURIs []string `json:"postLogoutRedirectUris"`
	BackchannelLogoutURI   string   `json:"backchannelLogoutUri,omitempty"`
	RequireDPoP            bool     `json:"requireDpop,omitempty"`
}

func (h *HTTPApps) call(ctx context.Context, method, path string, in any, want int) (*App, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.base+path, body)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("identity provider %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != want {
		return nil, mgmtError(method, path, resp.StatusCode, raw)
	}
	if want == http.StatusNoContent {
		return nil, nil
	}
	var a mgmtApp
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("identity provider %s %s: %w", method, path, err)
	}
	return &App{AppID: a.AppID, ClientID: a.ClientID, RedirectURIs: a.RedirectURIs, ClientSecret: a.ClientSecret}, nil
}

// mgmtError keeps the provider's message for answers the caller can act on
// (400, 404, 409) and returns a plain error, logged not shown, otherwise.
func mgmtError(method, path string, status int, raw []byte) error {
	var e struct {
		Error struct {
			Detail []string `json:"detail"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	msg := strings.Join(e.Error.Detail, "; ")
	switch status {
	case http.StatusBadRequest:
		return platform.Errorf(platform.EINVALID, "the identity provider refused the application: %s", msg)
	case http.StatusNotFound:
		return platform.Errorf(platform.ENOTFOUND, "the identity provider has no such application")
	case http.StatusConflict:
		return platform.Errorf(platform.ECONFLICT, "the identity provider refused the application: %s", msg)
	}
	return fmt.Errorf("identity provider %s %s: status %d: %s", method, path, status, msg)
}

// Create registers a public application (PKCE S256).
func (h *HTTPApps) Create(ctx context.Context, in AppInput) (*App, error) {
	return h.call(ctx, http.MethodPost, "/applications", mgmtAppRequest(in), http.StatusCreated)
}

// Update replaces an application's name and redirect URIs.
func (h *HTTPApps) Update(ctx context.Context, appID string, in AppInput) (*App, error) {
	return h.call(ctx, http.MethodPut, "/applications/"+url.PathEscape(appID), mgmtAppRequest(in), http.StatusOK)
}

// Delete removes an application.
func (h *HTTPApps) Delete(ctx context.Context, appID string) error {
	_, err := h.call(ctx, http.MethodDelete, "/applications/"+url.PathEscape(appID), nil, http.StatusNoContent)
	return err
}

// Rotate gives an application a new client id.
func (h *HTTPApps) Rotate(ctx context.Context, appID string) (*App, error) {
	return h.call(ctx, http.MethodPost, "/applications/"+url.PathEscape(appID)+"/rotate", nil, http.StatusOK)
}

// RotateSecret gives a confidential application a new client secret.
func (h *HTTPApps) RotateSecret(ctx context.Context, appID string) (*App, error) {
	return h.call(ctx, http.MethodPost, "/applications/"+url.PathEscape(appID)+"/rotate-secret", nil, http.StatusOK)
}
