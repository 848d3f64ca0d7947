package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// workerRoutes: the platform's background workers and how their runs went,
// an internal-infrastructure resource (R4.6-infra): platform_admin and
// infra_ops run, pause and resume them, compliance_admin and reader read.
func (a *API) workerRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/system-workers", Op: admin.OpSystemWorkerList, Handle: ofCaller(http.StatusOK, s.ListSystemWorkers)},
		{Method: http.MethodGet, Pattern: "/system-workers/{id}", Op: admin.OpSystemWorkerGet, Handle: byID(http.StatusOK, s.SystemWorker)},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/run", Op: admin.OpSystemWorkerRun,
			Handle: byID(http.StatusAccepted, s.RunSystemWorker)},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/pause", Op: admin.OpSystemWorkerPause, Handle: a.pauseWorker(true)},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/resume", Op: admin.OpSystemWorkerResume, Handle: a.pauseWorker(false)},
	}
}

// pauseWorker pauses the worker (paused true) or resumes it.
func (a *API) pauseWorker(paused bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := a.svc.PauseSystemWorker(r.Context(), c, id(r), paused)
		return respond(http.StatusOK, v, err)
	}
}
