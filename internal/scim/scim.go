// Package scim is the SCIM 2.0 server (RFC 7643, RFC 7644) at
// {console_url}/scim/v2 (D-scim): a customer's directory provisions the
// users and groups of its organization with a bearer token made in the
// console. The protocol lives here (resources, filters, PATCH, errors);
// every change goes through admin.Service, as the caller the token acts as,
// decided and audited as the console's own changes are.
package scim

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Limits of the SCIM server (docs/scim.md).
const (
	// MaxBody bounds a request's body.
	MaxBody = httpapi.MaxBody
	// MaxCount is the most resources a list answers; a larger count is
	// taken as MaxCount (RFC 7644 3.4.2.4).
	MaxCount = 100
	// MaxFilter bounds a filter's length, and MaxFilterTerms the
	// comparisons it holds.
	MaxFilter      = 1000
	MaxFilterTerms = 20
	// MaxOperations bounds a PATCH request's operations, and MaxMembers the
	// members one request adds, removes or sets.
	MaxOperations = 100
	MaxMembers    = 1000
	// RateLimit is how many requests one token makes a minute by default
	// (New's rate).
	RateLimit = 1200
)

// The resources' endpoints.
const (
	usersPath  = "/Users"
	groupsPath = "/Groups"
)

// ContentType is what the server answers; it reads it and application/json.
const ContentType = "application/scim+json"

// Server answers the SCIM routes.
type Server struct {
	svc     *admin.Service
	counter httpapi.Counter
	rate    int    // requests one token makes a minute; 0: unlimited
	base    string // the public URL of /scim/v2, for meta.location
}

// New returns the server of svc, counting requests per token with counter,
// rate a minute (0: no limit); consoleURL is the console's public URL.
func New(svc *admin.Service, counter httpapi.Counter, rate int, consoleURL string) *Server {
	return &Server{svc: svc, counter: counter, rate: rate, base: strings.TrimRight(consoleURL, "/") + "/scim/v2"}
}

// Mount adds the routes under /scim/v2 to r.
func (s *Server) Mount(r chi.Router) {
	r.Route("/scim/v2", func(r chi.Router) {
		r.Use(limitBody, s.authenticate)
		r.Method(http.MethodGet, "/ServiceProviderConfig", handler(s.serviceProviderConfig))
		r.Method(http.MethodGet, "/ResourceTypes", handler(s.resourceTypes))
		r.Method(http.MethodGet, "/ResourceTypes/{name}", handler(s.resourceType))
		r.Method(http.MethodGet, "/Schemas", handler(s.schemas))
		r.Method(http.MethodGet, "/Schemas/{id}", handler(s.schema))
		resource{s.listUsers, s.createUser, s.getUser, s.putUser, s.patchUser, s.deleteUser}.mount(r, usersPath)
		resource{s.listGroups, s.createGroup, s.getGroup, s.putGroup, s.patchGroup, s.deleteGroup}.mount(r, groupsPath)
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, platform.Errorf(platform.ENOTFOUND, "no such SCIM endpoint"))
		})
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			writeErrorStatus(w, r, http.StatusMethodNotAllowed, "", "the method is not allowed here")
		})
	})
}

// handler is a SCIM endpoint: it answers the request, or returns the error
// to answer in SCIM's error schema.
type handler func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP answers the request with h, and h's error in SCIM's error schema.
func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		writeError(w, r, err)
	}
}

// resource is the endpoints of a resource type (RFC 7644 3.2): its list
// and creation, and one resource's read, replacement, change and removal.
type resource struct {
	list, create, get, replace, patch, remove handler
}

// mount adds the resource's endpoints under path to r.
func (res resource) mount(r chi.Router, path string) {
	r.Route(path, func(r chi.Router) {
		r.Method(http.MethodGet, "/", res.list)
		r.Method(http.MethodPost, "/", res.create)
		r.Method(http.MethodGet, "/{id}", res.get)
		r.Method(http.MethodPut, "/{id}", res.replace)
		r.Method(http.MethodPatch, "/{id}", res.patch)
		r.Method(http.MethodDelete, "/{id}", res.remove)
	})
}

// authenticate takes the bearer token (EUNAUTHORIZED without a live one),
// counts the request against the token's rate limit and puts the caller the
// token acts as in the context.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		token = strings.TrimSpace(token)
		if !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 200 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="scim"`)
			writeError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "a bearer token is required"))
			return
		}
		c, err := s.svc.SCIMCaller(r.Context(), token)
		if err != nil {
			if platform.ErrorCode(err) == platform.EUNAUTHORIZED {
				w.Header().Set("WWW-Authenticate", `Bearer realm="scim", error="invalid_token"`)
			}
			writeError(w, r, err)
			return
		}
		now := time.Now()
		ok, reset, err := true, now, error(nil)
		if s.rate > 0 {
			ok, reset, err = s.counter.Allow(r.Context(), "scim:"+c.UserID, s.rate, time.Minute, now)
		}
		if err != nil {
			slog.ErrorContext(r.Context(), "scim rate limit counter", "err", err)
		} else if !ok {
			secs := int(reset.Sub(now).Seconds()) + 1
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			writeError(w, r, platform.Errorf(platform.ELIMIT, "too many requests; try again in %d seconds", secs))
			return
		}
		next.ServeHTTP(w, r.WithContext(access.WithCaller(r.Context(), c)))
	})
}

// limitBody refuses a body over MaxBody (413, tooMany): at once when
// Content-Length says so, else when the decoder reads past it.
func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxBody {
			writeError(w, r, platform.Errorf(platform.ETOOLARGE, "the request body is larger than %d bytes", MaxBody))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		next.ServeHTTP(w, r)
	})
}

func caller(r *http.Request) *access.Caller { return access.From(r.Context()) }

// resourceID is the route's {id}, the resource a request is about.
func resourceID(r *http.Request) string { return chi.URLParam(r, "id") }

// decode reads a JSON object of a SCIM request: application/scim+json or
// application/json (EUNSUPPORTED otherwise), within MaxBody.
func decode(r *http.Request, v any) error {
	mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt != ContentType && mt != "application/json" {
		return platform.Errorf(platform.EUNSUPPORTED, "the body must be application/scim+json or application/json")
	}
	return httpapi.DecodeJSONLoose(r, v)
}

// readResource reads a resource's body with read.
func readResource[T any](r *http.Request, read func(map[string]any) (T, error)) (T, error) {
	var doc map[string]any
	if err := decode(r, &doc); err != nil {
		var zero T
		return zero, err
	}
	return read(doc)
}

// write answers v as application/scim+json.
func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", ContentType+"; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// answer answers a resource's document with status and its location,
// projected as the request asks (RFC 7644 3.4.2.5); doc makes the document
// for the projection.
func answer(w http.ResponseWriter, r *http.Request, status int, location string, doc func(projection) (map[string]any, error)) error {
	proj, err := projectionOf(r)
	if err != nil {
		return err
	}
	d, err := doc(proj)
	if err != nil {
		return err
	}
	w.Header().Set("Location", location)
	write(w, status, proj.apply(d))
	return nil
}

// noContent answers 204 unless err says why not.
func noContent(w http.ResponseWriter, err error) error {
	if err == nil {
		w.WriteHeader(http.StatusNoContent)
	}
	return err
}

// ctx is r's context.
func ctx(r *http.Request) context.Context { return r.Context() }
