package console

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/platform/platform/internal/platform"

	"github.com/platform/platform/internal/i18n"
)

// Scopes with a meaning at the identity provider.
const (
	scopePrivilegedPrefix = "urn:idp:iam:"
	scopeOrgPrefix        = "urn:idp:iam:org:id:"
	scopeIDPPrefix        = "urn:idp:iam:org:idp:id:"
	scopeResourceOwner    = "urn:idp:iam:user:resourceowner"
)

// standardScopes pass through from an external request (R5.4-standard).
var standardScopes = []string{"openid", "profile", "email", "offline_access"}

// SanitizeScopes cleans the scopes of an external (tenant-app) request: every
// urn:idp:iam: scope is removed (R5.4-strip), only the standard scopes pass
// (R5.4-standard; anything else is dropped too), openid is always present,
// and the console appends the organization scope and, for SSO only, the
// provider scope (R5.4-append). Invalid ids are not appended.
func SanitizeScopes(requested string, orgID, idpID string) []string {
	seen := map[string]bool{}
	out := []string{"openid"}
	seen["openid"] = true
	for _, s := range strings.Fields(requested) {
		if seen[s] || strings.HasPrefix(s, scopePrivilegedPrefix) {
			continue
		}
		for _, std := range standardScopes {
			if s == std {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	if platform.ValidID(orgID) {
		out = append(out, scopeOrgPrefix+orgID)
		if platform.ValidID(idpID) {
			out = append(out, scopeIDPPrefix+idpID)
		}
	}
	return out
}

// OwnScopes are the console's own flow's scopes, from its configuration
// (R5.4-own): openid profile email urn:idp:iam:user:resourceowner, plus the
// organization scope and, for SSO, the provider scope.
func OwnScopes(orgID, idpID string) []string {
	out := []string{"openid", "profile", "email", scopeResourceOwner}
	if platform.ValidID(orgID) {
		out = append(out, scopeOrgPrefix+orgID)
		if platform.ValidID(idpID) {
			out = append(out, scopeIDPPrefix+idpID)
		}
	}
	return out
}

// AuthorizeParams are the parts of an authorize request.
type AuthorizeParams struct {
	ClientID      string
	RedirectURI   string
	Scopes        []string
	CodeChallenge string
	State         string
	Nonce         string
	LoginHint     string
	Prompt        string
	// UILocales is the language the browser asked the gateway for, one
	// supported code ("de", …) or "" (D-languages).
	UILocales string
	// ACRValues and MaxAge ask for a step-up (D-step-up): a sign-in of that
	// class no older than MaxAge seconds; MaxAge < 0 asks nothing of it.
	ACRValues string
	MaxAge    int
}

var errBadAuthorize = errors.New("console: refusing to build an authorize URL")

// BuildAuthorizeURL returns the identity provider's authorize URL for p. It
// refuses unless p.RedirectURI is one of registered (R4.1-rc-never), the
// challenge is a well-formed S256 challenge (R5.1-pkce), and state and nonce
// are present and of sane length.
func BuildAuthorizeURL(endpoint string, p AuthorizeParams, registered []string) (string, error) {
	ok := false
	for _, r := range registered {
		if r != "" && r == p.RedirectURI {
			ok = true
		}
	}
	if !ok || p.ClientID == "" || len(p.ClientID) > 256 || !validChallenge(p.CodeChallenge) ||
		!validOpaque(p.State) || !validOpaque(p.Nonce) || len(p.LoginHint) > 320 {
		return "", errBadAuthorize
	}
	for _, s := range p.Scopes {
		if s == "" || strings.ContainsAny(s, " \t\r\n") {
			return "", errBadAuthorize
		}
	}
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {p.ClientID},
		"redirect_uri":          {p.RedirectURI},
		"scope":                 {strings.Join(p.Scopes, " ")},
		"code_challenge":        {p.CodeChallenge},
		"code_challenge_method": {"S256"},
		"state":                 {p.State},
		"nonce":                 {p.Nonce},
	}
	if p.LoginHint != "" {
		q.Set("login_hint", p.LoginHint)
	}
	if code, ok := i18n.Valid(p.UILocales); ok && code != "" {
		q.Set("ui_locales", code)
	}
	if p.Prompt == "none" || p.Prompt == "login" {
		q.Set("prompt", p.Prompt)
	}
	if p.ACRValues != "" {
		q.Set("acr_values", p.ACRValues)
	}
	if p.MaxAge >= 0 && p.ACRValues != "" {
		q.Set("max_age", strconv.Itoa(p.MaxAge))
	}
	return endpoint + "?" + q.Encode(), nil
}

// validChallenge: base64url of a SHA-256 digest is 43 characters; RFC 7636
// allows 43 to 128 characters of the unreserved set.
func validChallenge(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return false
		}
	}
	return true
}

// validOpaque accepts the printable ASCII values apps use for state and nonce.
func validOpaque(s string) bool {
	if s == "" || len(s) > 512 {
		return false
	}
	for _, c := range s {
		if c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}
