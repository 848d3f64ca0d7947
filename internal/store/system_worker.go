package store

import (
	"context"
	"database/sql"
	"time"
)

// SystemWorker is a background worker of the platform and its run record.
type SystemWorker struct {
	ID              string
	Name            string
	Description     string
	IntervalSeconds int
	Paused          bool
	LastRunAt       *time.Time
	LastError       string
	Failures        int
	RunRequestedAt  *time.Time
}

const workerColumns = `id, name, description, interval_seconds, paused, last_run_at, last_error, failures, run_requested_at`

func scanWorker(r Row) (SystemWorker, error) {
	var w SystemWorker
	var last, req sql.NullTime
	err := r.Scan(&w.ID, &w.Name, &w.Description, &w.IntervalSeconds, &w.Paused, &last, &w.LastError, &w.Failures, &req)
	w.LastRunAt, w.RunRequestedAt = timePtr(last), timePtr(req)
	return w, err
}

var workers = table[SystemWorker]{"system_workers", "system worker", workerColumns, scanWorker}

// PutSystemWorker registers a worker, keeping the run record of one
// already registered.
func (s *System) PutSystemWorker(ctx context.Context, w *SystemWorker) error {
	_, err := s.db.Exec(ctx, `INSERT INTO system_workers (id, name, description, interval_seconds) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
		interval_seconds = EXCLUDED.interval_seconds`, w.ID, w.Name, w.Description, w.IntervalSeconds)
	return wrap(err, "system worker")
}

// SystemWorker returns one worker. ENOTFOUND.
func (s *System) SystemWorker(ctx context.Context, id string) (*SystemWorker, error) {
	return workers.get(ctx, s.db, id)
}

// SystemWorkers lists the workers by id.
func (s *System) SystemWorkers(ctx context.Context) ([]SystemWorker, error) {
	return workers.list(ctx, s.db, "TRUE", "id")
}

// SetWorkerPaused pauses or resumes a worker. ENOTFOUND.
func (s *System) SetWorkerPaused(ctx context.Context, id string, paused bool) error {
	return s.execOne(ctx, workers.noun, `UPDATE system_workers SET paused = $2 WHERE id = $1`, id, paused)
}

// RequestWorkerRun asks a worker to run at its next check. ENOTFOUND.
func (s *System) RequestWorkerRun(ctx context.Context, id string, at time.Time) error {
	return s.execOne(ctx, workers.noun, `UPDATE system_workers SET run_requested_at = $2 WHERE id = $1`, id, at.UTC())
}

// RecordWorkerRun stores the outcome of a run: failures counts consecutive
// failed runs and is reset by a good one; a pending run request is cleared.
func (s *System) RecordWorkerRun(ctx context.Context, id string, at time.Time, runErr string) error {
	return s.execOne(ctx, workers.noun, `UPDATE system_workers SET last_run_at = $2, last_error = $3,
		failures = CASE WHEN $3 = '' THEN 0 ELSE failures + 1 END, run_requested_at = NULL WHERE id = $1`, id, at.UTC(), runErr)
}
