package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MountOps adds /healthz (the process runs) and /readyz (its dependencies
// answer) to r. Metrics are not among them: they go on their own listener
// (MetricsHandler, D-metrics).
func MountOps(r chi.Router, ready func(context.Context) error) {
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			reason := "database unreachable"
			var nr NotReady
			if errors.As(err, &nr) {
				reason = string(nr)
			}
			w.Header().Set("Cache-Control", "no-store")
			WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": reason})
			return
		}
		WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
}

// NotReady is a readiness failure that names its reason: "draining" (the
// process is stopping), "database pool busy", "database unreachable".
type NotReady string

func (n NotReady) Error() string { return "not ready: " + string(n) }

// MetricsHandler serves GET /metrics (Prometheus) and nothing else: the
// handler of the metrics listener (METRICS_ADDR, loopback by default), which
// is never one of the public ones (D-metrics).
func MetricsHandler(gatherer prometheus.Gatherer) http.Handler {
	r := chi.NewRouter()
	r.Handle("/metrics", promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{}))
	return r
}
