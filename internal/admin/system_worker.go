package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

// systemWorkers manages the platform's background workers.
type systemWorkers struct{ *core }

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
func (s *systemWorkers) ListSystemWorkers(ctx context.Context, c *access.Caller) (*Page[*SystemWorkerView], error) {
	return infraList(ctx, s.core, c, OpSystemWorkerList, s.store.SystemWorkers, newSystemWorkerView)
}

// SystemWorker returns one worker. ENOTFOUND.
func (s *systemWorkers) SystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	return infraGet(ctx, s.core, c, OpSystemWorkerGet, id, s.store.SystemWorker, newSystemWorkerView)
}

// RunSystemWorker asks a worker to run at its next check, paused or not
// (answered 202: the run happens in the worker). ENOTFOUND.
func (s *systemWorkers) RunSystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	return s.command(ctx, c, OpSystemWorkerRun, id, func(tx *store.Store) error { return tx.RequestWorkerRun(ctx, id, s.stamp()) })
}

// PauseSystemWorker pauses (paused true) or resumes a worker. ENOTFOUND.
func (s *systemWorkers) PauseSystemWorker(ctx context.Context, c *access.Caller, id string, paused bool) (*SystemWorkerView, error) {
	op := OpSystemWorkerResume
	if paused {
		op = OpSystemWorkerPause
	}
	return s.command(ctx, c, op, id, func(tx *store.Store) error { return tx.SetWorkerPaused(ctx, id, paused) })
}

// command gives the worker id a command (write) as op, audited, and answers
// the worker.
func (s *systemWorkers) command(ctx context.Context, c *access.Caller, op Operation, id string, write func(tx *store.Store) error) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	return reread(ctx, s.core, c, op, on("", "system-workers", id), write, s.store.SystemWorker, id, newSystemWorkerView)
}
