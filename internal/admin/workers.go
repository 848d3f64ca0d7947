package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// workerRoutes: the platform's background workers and how their runs went,
// an internal-infrastructure resource (R4.6-infra): platform_admin and
// infra_ops run, pause and resume them, compliance_admin and reader read.
func (a *Admin) workerRoutes() []Route {
	const act = authz.ManageSystemWorkers
	return []Route{
		{Method: http.MethodGet, Pattern: "/system-workers", Action: act, Handle: a.listWorkers},
		{Method: http.MethodGet, Pattern: "/system-workers/{id}", Action: act, Handle: a.getWorker},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/run", Action: act, Write: true, Handle: a.runWorker},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/pause", Action: act, Write: true, Handle: a.pauseWorker},
		{Method: http.MethodPost, Pattern: "/system-workers/{id}/resume", Action: act, Write: true, Handle: a.resumeWorker},
	}
}

func (a *Admin) listWorkers(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.ListSystemWorkers(r.Context(), c)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) getWorker(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.SystemWorker(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) runWorker(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.RunSystemWorker(r.Context(), c, id(r))
	return respond(http.StatusAccepted, v, err)
}

func (a *Admin) pauseWorker(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.PauseSystemWorker(r.Context(), c, id(r), true)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) resumeWorker(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.PauseSystemWorker(r.Context(), c, id(r), false)
	return respond(http.StatusOK, v, err)
}

// SystemWorkerView is a background worker and how its runs went, as the API
// shows it; lastRunAt and runRequestedAt are null when there is none.
type SystemWorkerView struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Description     string     `json:"description"`
	IntervalSeconds int        `json:"intervalSeconds"`
	Paused          bool       `json:"paused"`
	LastRunAt       *time.Time `json:"lastRunAt"`
	LastError       string     `json:"lastError"`
	Failures        int        `json:"failures"`
	RunRequestedAt  *time.Time `json:"runRequestedAt"`
}

func newSystemWorkerView(w *store.SystemWorker) *SystemWorkerView {
	return &SystemWorkerView{ID: w.ID, Name: w.Name, Description: w.Description, IntervalSeconds: w.IntervalSeconds,
		Paused: w.Paused, LastRunAt: w.LastRunAt, LastError: w.LastError, Failures: w.Failures, RunRequestedAt: w.RunRequestedAt}
}

// ListSystemWorkers lists the workers.
func (s *Service) ListSystemWorkers(ctx context.Context, c *access.Caller) (*Page[*SystemWorkerView], error) {
	if err := s.infra(ctx, c, authz.ManageSystemWorkers, false); err != nil {
		return nil, err
	}
	rows, err := s.store.SystemWorkers(ctx)
	if err != nil {
		return nil, err
	}
	return items(views(rows, newSystemWorkerView)), nil
}

// SystemWorker returns one worker. ENOTFOUND.
func (s *Service) SystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, authz.ManageSystemWorkers, false); err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}

// RunSystemWorker asks a worker to run at its next check, paused or not
// (answered 202: the run happens in the worker). ENOTFOUND.
func (s *Service) RunSystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, authz.ManageSystemWorkers, true); err != nil {
		return nil, err
	}
	if err := s.store.RequestWorkerRun(ctx, id, s.stamp()); err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}

// PauseSystemWorker pauses (paused true) or resumes a worker. ENOTFOUND.
func (s *Service) PauseSystemWorker(ctx context.Context, c *access.Caller, id string, paused bool) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, authz.ManageSystemWorkers, true); err != nil {
		return nil, err
	}
	if err := s.store.SetWorkerPaused(ctx, id, paused); err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}
