package idp

import (
	"encoding/json"
	"mime"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/clientkeys"
	"github.com/platform/platform/internal/platform"
)

// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document,
// D-client-metadata-documents): a client_id that is an https URL with a
// path names the JSON document at that URL, which describes the client.
// This file holds the rules of the URL and of the document; clientdocs.go
// fetches, caches and records them.

// Bounds of a metadata document: its size, the time its fetch may take,
// and how long a fetched document holds (its Cache-Control max-age within
// [docMinAge, docMaxAge]; docDefaultAge without one).
const (
	docMaxBytes   = 5 << 10 // 5 KiB
	docTimeout    = 5 * time.Second
	docMinAge     = time.Minute
	docMaxAge     = 24 * time.Hour
	docDefaultAge = time.Hour
)

// looksLikeDocumentURL reports whether a client_id is meant as a metadata
// document's URL (a scheme and "://"); such an id is either a valid one
// or refused, never looked up as a registered client.
func looksLikeDocumentURL(clientID string) bool {
	scheme, _, ok := strings.Cut(clientID, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, "/?#")
}

// documentURL checks a client_id that names a metadata document (the
// draft's section 3): https, a host (lower case) and a path other than
// "/", no credentials, fragment, query, dot segments, at most 2000
// characters. EINVALID says which rule failed.
func documentURL(clientID string) (*url.URL, error) {
	bad := func(why string) (*url.URL, error) {
		return nil, platform.Errorf(platform.EINVALID, "a client_id that is a URL %s", why)
	}
	u, err := url.Parse(clientID)
	switch {
	case err != nil || len(clientID) > 2000:
		return bad("must be a valid URL of at most 2000 characters")
	case u.Scheme != "https":
		return bad("must use https")
	case u.Host == "" || u.User != nil:
		return bad("must name a host and no credentials")
	case u.Fragment != "" || strings.Contains(clientID, "#"):
		return bad("must not have a fragment")
	case u.RawQuery != "" || u.ForceQuery:
		return bad("must not have a query")
	case u.Path == "" || u.Path == "/":
		return bad("must have a path")
	case u.Host != strings.ToLower(u.Host):
		return bad("must name its host in lower case")
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if seg == "." || seg == ".." || strings.EqualFold(seg, "%2e") || strings.EqualFold(seg, "%2e%2e") {
			return bad("must not have dot segments")
		}
	}
	return u, nil
}

// clientDocument is what a metadata document says (RFC 7591 section 2
// names); other members are ignored.
type clientDocument struct {
	ClientID                string          `json:"client_id"`
	ClientName              string          `json:"client_name"`
	ClientURI               string          `json:"client_uri"`
	LogoURI                 string          `json:"logo_uri"`
	RedirectURIs            []string        `json:"redirect_uris"`
	TokenEndpointAuthMethod string          `json:"token_endpoint_auth_method"`
	GrantTypes              []string        `json:"grant_types"`
	ResponseTypes           []string        `json:"response_types"`
	JWKS                    json.RawMessage `json:"jwks"`
	JWKSURI                 string          `json:"jwks_uri"`
	ClientSecret            json.RawMessage `json:"client_secret"`
	ClientSecretExpiresAt   json.RawMessage `json:"client_secret_expires_at"`
}

// checkDocument reads a fetched document of clientID into the document's
// part of app, or answers why it is refused (EINVALID). A document is a
// JSON object whose client_id is clientID exactly, with a client_name,
// 1 to 10 redirect URIs (https, or http on a loopback host; matched
// exactly as every redirect URI), the code flow only, no client secret,
// and as token_endpoint_auth_method none (absent means none: a public
// client, PKCE S256 as always) or private_key_jwt with its keys as jwks
// (never jwks_uri, as at registration).
func checkDocument(clientID string, body []byte, app *platform.Application) error {
	bad := func(why string) error {
		return platform.Errorf(platform.EINVALID, "the client's metadata document %s", why)
	}
	var d clientDocument
	if err := json.Unmarshal(body, &d); err != nil {
		return bad("is not a JSON object")
	}
	switch {
	case d.ClientID != clientID:
		return bad("must name the URL it is served at as its client_id")
	case d.ClientSecret != nil || d.ClientSecretExpiresAt != nil:
		return bad("must not carry a client secret")
	case d.JWKSURI != "":
		return bad("must carry its keys as jwks (jwks_uri is not supported)")
	case strings.TrimSpace(d.ClientName) == "" || len(d.ClientName) > 200:
		return bad("must have a client_name of at most 200 characters")
	case len(d.RedirectURIs) == 0 || len(d.RedirectURIs) > 10:
		return bad("must name 1 to 10 redirect_uris")
	}
	if why := codeFlowOnly(d.GrantTypes, d.ResponseTypes); why != "" {
		return bad("is refused: " + why)
	}
	for _, u := range d.RedirectURIs {
		if len(u) > 2000 || platform.CheckRedirectURI("redirect_uris", u) != nil || platform.CheckHTTPSOrLoopback("redirect_uris", u) != nil {
			return bad("must name redirect URIs that are absolute https URIs (http on a loopback host) without a fragment")
		}
	}
	for _, u := range []string{d.ClientURI, d.LogoURI} {
		if u != "" && (len(u) > 2000 || !strings.HasPrefix(u, "https://") || platform.CheckHTTPSOrLoopback("uri", u) != nil) {
			return bad("must name its client_uri and logo_uri as https URLs")
		}
	}
	app.Kind, app.AuthMethod, app.JWKS = platform.AppPublic, platform.AuthNone, ""
	switch d.TokenEndpointAuthMethod {
	case "", platform.AuthNone:
		if len(d.JWKS) > 0 {
			return bad("carries jwks, which are for private_key_jwt")
		}
	case platform.AuthPrivateKeyJWT:
		jwks, err := clientkeys.Validate(d.JWKS)
		if err != nil {
			return bad("must carry valid public keys for private_key_jwt: " + platform.ErrorMessage(err))
		}
		app.Kind, app.AuthMethod, app.JWKS = platform.AppWeb, platform.AuthPrivateKeyJWT, jwks
	default:
		return bad("must use token_endpoint_auth_method none or private_key_jwt")
	}
	app.Name = strings.TrimSpace(d.ClientName)
	app.RedirectURIs = slices.Clone(d.RedirectURIs)
	app.ClientURI, app.LogoURI = d.ClientURI, d.LogoURI
	return nil
}

// isJSON reports whether a Content-Type is application/json.
func isJSONType(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	return err == nil && t == "application/json"
}

// documentAge is how long a fetched document holds, from its
// Cache-Control: max-age within [docMinAge, docMaxAge]; no-store or
// no-cache hold it docMinAge (a document is not fetched on every request);
// none, docDefaultAge.
func documentAge(cacheControl string) time.Duration {
	age := docDefaultAge
	for _, d := range strings.Split(cacheControl, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
		switch strings.ToLower(name) {
		case "no-store", "no-cache":
			return docMinAge
		case "max-age":
			if n, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64); err == nil && n >= 0 {
				age = time.Duration(min(n, int64(docMaxAge/time.Second))) * time.Second
			}
		}
	}
	return min(max(age, docMinAge), docMaxAge)
}
