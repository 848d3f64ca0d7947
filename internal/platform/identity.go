package platform

import (
	"crypto/sha256"
	"encoding/base64"
	"net/mail"
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
	// Locale is the language the user saved for pages and e-mails ("de",
	// "ja", …; "" for none, D-languages).
	Locale string
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
	// AuthMethod is how the client authenticates at the token endpoint
	// (AuthNone, AuthSecretBasic, AuthSecretPost, AuthPrivateKeyJWT); empty
	// is AuthNone for public applications and AuthSecretBasic otherwise.
	AuthMethod string
	// JWKS holds the public keys (a JWK Set, JSON) a private_key_jwt client
	// signs its assertions with.
	JWKS string
	// UserID is the principal a client_credentials grant of the client acts
	// as: a service account's user. Empty for the console's service client,
	// whose tokens name the client itself.
	UserID string
	// RequirePAR refuses authorization requests that were not pushed
	// (RFC 9126) first.
	RequirePAR bool
	// BackchannelLogoutURI receives a logout token when a user's session at
	// the provider ends (OpenID Connect Back-Channel Logout 1.0).
	BackchannelLogoutURI string
	// DeviceFlow lets the application use the device authorization grant
	// (RFC 8628).
	DeviceFlow bool
	// RequireDPoP refuses token requests without a DPoP proof (RFC 9449):
	// every token of the application is bound to its key.
	RequireDPoP bool
	// RegisteredCustomerID is the customer whose initial access token
	// registered the application (dynamic client registration, RFC 7591);
	// "" for an application made any other way.
	RegisteredCustomerID string
	// RegistrationTokenID is that initial access token.
	RegistrationTokenID string
	// RegistrationHash is the hash of its registration access token (RFC
	// 7592), which reads, updates and deletes its registration.
	RegistrationHash string
	// Management lets a service application call the management API.
	Management bool
	CreatedAt  time.Time
	// MetadataCustomerID is the customer whose client ID metadata document
	// client this is (its client_id the document's https URL, on one of the
	// customer's verified domains; D-client-metadata-documents); "" for an
	// application made any other way.
	MetadataCustomerID string
	// MetadataFetchedAt is when the document was last fetched, and
	// MetadataExpiresAt until when it holds without fetching it again.
	MetadataFetchedAt time.Time
	MetadataExpiresAt time.Time
	// ClientURI and LogoURI are the document's client_uri and logo_uri.
	ClientURI string
	LogoURI   string
	// BlockedAt is when the customer blocked the client; zero while it is
	// not blocked.
	BlockedAt time.Time
}

// Token endpoint authentication methods of an application.
const (
	AuthNone          = "none"
	AuthSecretBasic   = "client_secret_basic"
	AuthSecretPost    = "client_secret_post"
	AuthPrivateKeyJWT = "private_key_jwt"
)

// TokenAuthMethod is a's authentication method, its default filled in.
func (a *Application) TokenAuthMethod() string {
	switch {
	case a.AuthMethod != "":
		return a.AuthMethod
	case a.Kind == AppPublic:
		return AuthNone
	}
	return AuthSecretBasic
}

// HashSecret is how client secrets and other random handles are kept at
// rest: SHA-256, base64url. They are random 256-bit values, so a fast hash
// is enough; a leaked table gives nothing usable.
func HashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(sum[:])
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
		if len(a.RedirectURIs) == 0 && !a.DeviceFlow {
			problems = append(problems, "a public application needs a redirect URI, or the device flow")
		}
	case AppWeb:
		if len(a.RedirectURIs) == 0 {
			problems = append(problems, "a web application needs a redirect URI")
		}
	case AppService:
	default:
		problems = append(problems, "kind must be public, web or service")
	}
	switch m := a.TokenAuthMethod(); {
	case a.Kind == AppPublic && m != AuthNone:
		problems = append(problems, "a public application authenticates with none")
	case a.Kind != AppPublic && m == AuthNone, m != AuthNone && m != AuthSecretBasic && m != AuthSecretPost && m != AuthPrivateKeyJWT:
		problems = append(problems, "authMethod must be client_secret_basic, client_secret_post or private_key_jwt")
	case m == AuthPrivateKeyJWT && a.JWKS == "":
		problems = append(problems, "a private_key_jwt application needs its public keys")
	case (m == AuthSecretBasic || m == AuthSecretPost) && a.SecretHash == "":
		problems = append(problems, "a confidential application needs a secret")
	}
	if a.DeviceFlow && a.Kind != AppPublic {
		problems = append(problems, "the device flow is for public applications (a device keeps no secret)")
	}
	if a.BackchannelLogoutURI != "" && CheckRedirectURI("backchannelLogoutUri", a.BackchannelLogoutURI) != nil {
		problems = append(problems, "invalid back-channel logout URI: "+a.BackchannelLogoutURI)
	}
	for _, u := range append(append([]string{}, a.RedirectURIs...), a.PostLogoutRedirectURIs...) {
		if CheckRedirectURI("redirectUri", u) != nil {
			problems = append(problems, "invalid redirect URI: "+u)
		}
	}
	if len(problems) > 0 {
		return &Error{Code: EINVALID, Message: "invalid application", Details: problems}
	}
	return nil
}
