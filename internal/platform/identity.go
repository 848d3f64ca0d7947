package platform

import (
	"net/mail"
	"net/url"
	"strings"
	"time"
)

// Organization owns users and login policies at the identity provider. One
// organization is the administrator organization; its users are internal users.
type Organization struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// User is an account of one organization. Email is stored lower-cased and is
// unique within the organization; the same address may exist in several.
type User struct {
	ID            string
	OrgID         string
	Email         string
	EmailVerified bool
	Name          string
	PasswordHash  string
	FailedLogins  int
	LockedUntil   time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Application kinds.
const (
	AppPublic  = "public"  // browser or native app: no secret, PKCE S256 required
	AppWeb     = "web"     // server-side app: code flow with a hashed secret, PKCE S256 required too
	AppService = "service" // machine client: client_credentials with a hashed secret
)

// Application is a client registered at the identity provider. ClientID is what
// OAuth requests carry; AppID is the stable identifier used for rotation and
// deletion (the console stores it as idpAppId).
type Application struct {
	AppID                  string
	ClientID               string
	Name                   string
	Kind                   string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
	SecretHash             string
	// Management lets a service application call the management API.
	Management bool
	CreatedAt  time.Time
}

// NormalizeEmail trims and lower-cases an address for storage and look-up.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidEmail reports whether s is a bare e-mail address (no display name).
func ValidEmail(s string) bool {
	if s == "" || len(s) > 254 {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

// Validate checks an application before it is stored. Redirect URIs must be
// absolute http(s) URLs without fragments; they are matched exactly.
func (a *Application) Validate() error {
	var problems []string
	if strings.TrimSpace(a.ClientID) == "" {
		problems = append(problems, "client id is required")
	}
	if strings.TrimSpace(a.Name) == "" {
		problems = append(problems, "name is required")
	}
	switch a.Kind {
	case AppPublic:
		if len(a.RedirectURIs) == 0 {
			problems = append(problems, "a public application needs at least one redirect URI")
		}
	case AppWeb:
		if len(a.RedirectURIs) == 0 || a.SecretHash == "" {
			problems = append(problems, "a web application needs a redirect URI and a secret")
		}
	case AppService:
		if a.SecretHash == "" {
			problems = append(problems, "a service application needs a secret")
		}
	default:
		problems = append(problems, "kind must be public, web or service")
	}
	for _, u := range append(append([]string{}, a.RedirectURIs...), a.PostLogoutRedirectURIs...) {
		if !validRedirectURI(u) {
			problems = append(problems, "invalid redirect URI: "+u)
		}
	}
	if len(problems) > 0 {
		return &Error{Code: EINVALID, Message: "invalid application", Details: problems}
	}
	return nil
}

func validRedirectURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Fragment != "" || u.Host == "" {
		return false
	}
	return u.Scheme == "https" || u.Scheme == "http"
}
