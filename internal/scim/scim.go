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
		r.Get("/ServiceProviderConfig", s.serviceProviderConfig)
		r.Get("/ResourceTypes", s.resourceTypes)
		r.Get("/ResourceTypes/{name}", s.resourceType)
		r.Get("/Schemas", s.schemas)
		r.Get("/Schemas/{id}", s.schema)
		r.Route(usersPath, func(r chi.Router) {
			r.Get("/", s.listUsers)
			r.Post("/", s.createUser)
			r.Get("/{id}", s.getUser)
			r.Put("/{id}", s.putUser)
			r.Patch("/{id}", s.patchUser)
			r.Delete("/{id}", s.deleteUser)
		})
		r.Route(groupsPath, func(r chi.Router) {
			r.Get("/", s.listGroups)
			r.Post("/", s.createGroup)
			r.Get("/{id}", s.getGroup)
			r.Put("/{id}", s.putGroup)
			r.Patch("/{id}", s.patchGroup)
			r.Delete("/{id}", s.deleteGroup)
		})
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, platform.Errorf(platform.ENOTFOUND, "no such SCIM endpoint"))
		})
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			writeErrorStatus(w, r, http.StatusMethodNotAllowed, "", "the method is not allowed here")
		})
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

// readResource reads a resource's body with read; on a problem it answers
// the error and false.
func readResource[T any](w http.ResponseWriter, r *http.Request, read func(map[string]any) (T, error)) (T, bool) {
	var doc map[string]any
	err := decode(r, &doc)
	var st T
	if err == nil {
		st, err = read(doc)
	}
	if err != nil {
		writeError(w, r, err)
		return st, false
	}
	return st, true
}

// write answers v as application/scim+json.
func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", ContentType+"; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ctx is r's context.
func ctx(r *http.Request) context.Context { return r.Context() }
