package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/platform/platform/internal/platform"
)

// Body limits of every route (D-limits), in one place.
const (
	// MaxBody bounds the console's routes (the login gateway and the
	// administration API) and GraphQL.
	MaxBody = 1 << 20
	// MaxProviderBody bounds every endpoint of the identity provider and
	// the tenant backend's /auth/* routes.
	MaxProviderBody = 64 << 10
	// MaxUploadBody bounds a cx upload, JSON or multipart.
	MaxUploadBody = 32 << 20
)

// IsJSON reports whether r declares a JSON body: Content-Type
// application/json, in any case, with any parameters.
func IsJSON(r *http.Request) bool {
	mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// errNotJSON refuses a body of another type (415).
var errNotJSON = platform.Errorf(platform.EUNSUPPORTED, "the body must be JSON (Content-Type: application/json)")

// DecodeJSON reads r's body into v, strictly: declared application/json
// (EUNSUPPORTED otherwise), one JSON value and nothing after it, no field
// v does not have, within the body limit of the route (LimitBody;
// ETOOLARGE past it). Every other problem is EINVALID with a message
// naming it. The REST routes of the console and the provider's management
// API decode their bodies with it.
func DecodeJSON(r *http.Request, v any) error {
	if !IsJSON(r) {
		return errNotJSON
	}
	return decodeJSON(r, v, true)
}

// DecodeJSONLoose reads r's body into v as DecodeJSON does, but leaves the
// content type to the caller and ignores fields v does not have: for the
// one surface whose documented contract takes a client's token response
// whole, the tenant backend's POST /auth/idp/callback (D-request-body).
func DecodeJSONLoose(r *http.Request, v any) error {
	return decodeJSON(r, v, false)
}

func decodeJSON(r *http.Request, v any, strict bool) error {
	dec := json.NewDecoder(r.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return tooLargeError(tooLarge.Limit)
		case errors.Is(err, io.EOF):
			return platform.Errorf(platform.EINVALID, "the request body is empty; a JSON object is required")
		}
		return platform.Errorf(platform.EINVALID, "the request body is not valid: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return tooLargeError(tooLarge.Limit)
		}
		return platform.Errorf(platform.EINVALID, "the request body holds more than one JSON value")
	}
	return nil
}

func tooLargeError(limit int64) error {
	return platform.Errorf(platform.ETOOLARGE, "the request body is larger than %d bytes", limit)
}

// LimitBody refuses bodies over n bytes with 413 and the 7.1 object: at
// once when Content-Length says so, else when a reader gets past n.
func LimitBody(n int64) func(http.Handler) http.Handler {
	return limitBody(n, func(w http.ResponseWriter, r *http.Request) { WriteError(w, r, tooLargeError(n)) })
}

// LimitBodyPlain is LimitBody answering 413 in plain text, for a surface
// whose errors are not the 7.1 object (the identity provider's OAuth
// endpoints and pages).
func LimitBodyPlain(n int64) func(http.Handler) http.Handler {
	return limitBody(n, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "request body larger than "+strconv.FormatInt(n, 10)+" bytes", http.StatusRequestEntityTooLarge)
	})
}

func limitBody(n int64, refuse http.HandlerFunc) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > n {
				refuse(w, r)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}

// RequireJSON refuses a body that is not declared application/json with
// 415, before anything counts or reads it: a cross-site HTML form can post
// only urlencoded, multipart or text/plain bodies, so it cannot spend a
// visitor's rate-limit quota on a JSON route.
func RequireJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !IsJSON(r) {
			WriteError(w, r, errNotJSON)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// PostForm posts values as an application/x-www-form-urlencoded body to
// rawURL through client, within ctx: the provider's back-channel logout
// tokens and the tenant backend's refresh at the token endpoint.
func PostForm(ctx context.Context, client *http.Client, rawURL string, values url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, strings.NewReader(values.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return client.Do(req)
}
