package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/platform/platform/internal/platform"
)

type requestIDKey struct{}

// RequestID returns the id of the request in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID gives every request an id (kept from a well-formed incoming
// X-Request-ID) and echoes it in the response. An id already in the context
// is kept, so handlers may apply it again.
func WithRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if RequestID(r.Context()) != "" {
			next.ServeHTTP(w, r)
			return
		}
		id := r.Header.Get("X-Request-ID")
		if !platform.ValidID(id) {
			b := make([]byte, 12)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Metrics are the HTTP metrics of one process.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics registers the HTTP metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total", Help: "HTTP requests by role, route and status.",
		}, []string{"role", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "http_request_duration_seconds", Help: "HTTP request latency by role and route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"role", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// Observe logs each request (never its query string, which may carry codes or
// tokens), counts it and times it under the route pattern, recovering panics.
func (m *Metrics) Observe(role string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w}
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					slog.ErrorContext(r.Context(), "panic", "panic", v, "path", r.URL.Path, "request_id", RequestID(r.Context()))
					if sw.status == 0 {
						WriteError(sw, r, errPanic)
					}
				}
				route := "unmatched"
				if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
					route = rc.RoutePattern()
				}
				status := sw.status
				if status == 0 {
					status = http.StatusOK
				}
				d := time.Since(start)
				m.requests.WithLabelValues(role, route, strconv.Itoa(status)).Inc()
				m.duration.WithLabelValues(role, route).Observe(d.Seconds())
				slog.LogAttrs(r.Context(), slog.LevelInfo, "http",
					slog.String("role", role), slog.String("method", r.Method), slog.String("path", r.URL.Path),
					slog.Int("status", status), slog.Int("bytes", sw.bytes), slog.Duration("duration", d),
					slog.String("client", ClientIP(r)), slog.String("request_id", RequestID(r.Context())))
			}()
			next.ServeHTTP(sw, r)
		})
	}
}

var errPanic = &panicError{}

type panicError struct{}

func (*panicError) Error() string { return "handler panicked" }

// Deadline gives each request the time timeout(r) allows: database work
// still running then is cancelled and the request answers 503, and the
// connection's read and write deadlines follow, so a client sending its body
// slowly holds the connection no longer than the request may take
// (D-deadlines).
func Deadline(timeout func(*http.Request) time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			d := timeout(r)
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Now().Add(d))
			_ = rc.SetWriteDeadline(time.Now().Add(d + 5*time.Second)) // room to write the 503
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
