package idp

import (
	"strings"

	"github.com/platform/platform/internal/platform"
)

// Scopes with a meaning at this provider (D-idp-scopes).
const (
	ScopeOrgPrefix     = "urn:idp:iam:org:id:"     // + orgId: login limited to that organization
	ScopeOrgIDPPrefix  = "urn:idp:iam:org:idp:id:" // + idpId: straight to that external provider
	ScopeResourceOwner = "urn:idp:iam:user:resourceowner"

	ClaimResourceOwnerID   = "urn:idp:iam:user:resourceowner:id"
	ClaimResourceOwnerName = "urn:idp:iam:user:resourceowner:name"
)

// orgScope returns the organization a scope list limits the login to, or "".
func orgScope(scopes []string) string {
	for _, s := range scopes {
		if id, ok := strings.CutPrefix(s, ScopeOrgPrefix); ok {
			return id
		}
	}
	return ""
}

// allowedScope reports whether a scope may be requested at all. Unknown
// scopes are dropped by the library; these are kept.
func allowedScope(s string) bool {
	switch s {
	case "openid", "profile", "email", "offline_access", ScopeResourceOwner:
		return true
	}
	if id, ok := strings.CutPrefix(s, ScopeOrgPrefix); ok {
		return platform.ValidID(id)
	}
	if id, ok := strings.CutPrefix(s, ScopeOrgIDPPrefix); ok {
		return platform.ValidID(id)
	}
	return false
}

func hasScope(scopes []string, s string) bool {
	for _, x := range scopes {
		if x == s {
			return true
		}
	}
	return false
}

// idpScope returns the external provider a scope list sends the user to, or "".
func idpScope(scopes []string) string {
	for _, s := range scopes {
		if id, ok := strings.CutPrefix(s, ScopeOrgIDPPrefix); ok {
			return id
		}
	}
	return ""
}

// maxScopes bounds how many scopes one request may ask for.
const maxScopes = 20
