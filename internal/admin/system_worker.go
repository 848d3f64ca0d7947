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
	if err := s.infra(ctx, c, OpSystemWorkerList); err != nil {
		return nil, err
	}
	rows, err := s.store.SystemWorkers(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newSystemWorkerView)), nil
}

// SystemWorker returns one worker. ENOTFOUND.
func (s *systemWorkers) SystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, OpSystemWorkerGet); err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}

// RunSystemWorker asks a worker to run at its next check, paused or not
// (answered 202: the run happens in the worker). ENOTFOUND.
func (s *systemWorkers) RunSystemWorker(ctx context.Context, c *access.Caller, id string) (*SystemWorkerView, error) {
	if err := s.infra(ctx, c, OpSystemWorkerRun); err != nil {
		return nil, err
	}
	err := s.audited(ctx, c, OpSystemWorkerRun, on("", "system-workers", id), func(tx *store.Store) error {
		return tx.RequestWorkerRun(ctx, id, s.stamp())
	})
	if err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}

// PauseSystemWorker pauses (paused true) or resumes a worker. ENOTFOUND.
func (s *systemWorkers) PauseSystemWorker(ctx context.Context, c *access.Caller, id string, paused bool) (*SystemWorkerView, error) {
	op := OpSystemWorkerResume
	if paused {
		op = OpSystemWorkerPause
	}
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	err := s.audited(ctx, c, op, on("", "system-workers", id), func(tx *store.Store) error { return tx.SetWorkerPaused(ctx, id, paused) })
	if err != nil {
		return nil, err
	}
	return viewing(newSystemWorkerView)(s.store.SystemWorker(ctx, id))
}
