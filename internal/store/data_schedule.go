package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/platform/platform/internal/cx"
)

// Schedule is a cx schedule of a tenant; CustomerID is its tenant's customer.
type Schedule struct {
	ID         string
	TenantID   string
	ProjectID  string
	Name       string
	CreatedAt  time.Time
	CustomerID string
}

// CreateSchedule stores a schedule. ECONFLICT when the id is taken.
func (s *Data) CreateSchedule(ctx context.Context, sc *Schedule) error {
	_, err := s.db.Exec(ctx, `INSERT INTO schedules (id, tenant_id, project_id, name, created_at) VALUES ($1, $2, $3, $4, $5)`,
		sc.ID, sc.TenantID, sc.ProjectID, sc.Name, sc.CreatedAt.UTC())
	return wrap(err, "schedule")
}

// scheduleColumns are the columns of a schedule (aliased sc) and its
// tenant (t) in Schedule's order, scanned to scheduleDest.
const scheduleColumns = `sc.id, sc.tenant_id, sc.project_id, sc.name, sc.created_at, t.customer_id`

func scheduleDest(sc *Schedule) []any {
	return []any{&sc.ID, &sc.TenantID, &sc.ProjectID, &sc.Name, &sc.CreatedAt, &sc.CustomerID}
}

// Schedule returns a schedule with its tenant's customer. ENOTFOUND.
func (s *Data) Schedule(ctx context.Context, id string) (*Schedule, error) {
	var sc Schedule
	err := s.db.QueryRow(ctx, `SELECT `+scheduleColumns+` FROM schedules sc JOIN tenants t ON t.id = sc.tenant_id
		WHERE sc.id = $1`, id).Scan(scheduleDest(&sc)...)
	return &sc, wrap(err, "schedule")
}

// LockSchedule holds the schedule's rows against other writers until the
// transaction ends (SQLite transactions hold the write lock already). Call
// it in a transaction. ENOTFOUND.
func (s *Data) LockSchedule(ctx context.Context, id string) error {
	var got string
	return wrap(s.db.QueryRow(ctx, `SELECT id FROM schedules WHERE id = $1`+s.forUpdate(), id).Scan(&got), "schedule")
}

// ScheduleRows returns every row stored in a schedule, ordered by row id.
func (s *Data) ScheduleRows(ctx context.Context, scheduleID string) ([]cx.Row, error) {
	return queryAll(ctx, s.db, func(r Row) (cx.Row, error) {
		var row cx.Row
		var fields []byte
		if err := r.Scan(&fields); err != nil {
			return row, err
		}
		if err := json.Unmarshal(fields, &row); err != nil {
			return row, fmt.Errorf("schedule %s: row: %w", scheduleID, err)
		}
		return row, nil
	}, `SELECT fields FROM schedule_rows WHERE schedule_id = $1 ORDER BY row_id`, scheduleID)
}

// UpsertScheduleRows stores rows in a schedule, replacing stored rows with
// the same ID, all in one transaction: on PostgreSQL large sets are copied
// into a temporary table and merged with one INSERT … ON CONFLICT, other
// sets go in batched multi-row upserts. IDs must be distinct.
func (s *Data) UpsertScheduleRows(ctx context.Context, scheduleID string, rows []cx.Row, now time.Time) error {
	if len(rows) == 0 {
		return nil
	}
	values := make([][]any, len(rows))
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		values[i] = []any{rows[i].ID, string(b)}
	}
	now = now.UTC()
	const upsert = ` ON CONFLICT (schedule_id, row_id) DO UPDATE SET fields = excluded.fields, updated_at = excluded.updated_at`
	return s.InTx(ctx, func(tx *Store) error {
		if c, ok := tx.db.(copier); ok && len(rows) >= copyThreshold {
			// IF NOT EXISTS and the DELETE: a second call in one transaction finds the table
			if _, err := tx.db.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS schedule_rows_in (row_id TEXT NOT NULL, fields TEXT NOT NULL) ON COMMIT DROP`); err != nil {
				return err
			}
			if _, err := tx.db.Exec(ctx, `DELETE FROM schedule_rows_in`); err != nil {
				return err
			}
			if _, err := c.CopyFrom(ctx, "schedule_rows_in", []string{"row_id", "fields"}, values); err != nil {
				return err
			}
			_, err := tx.db.Exec(ctx, `INSERT INTO schedule_rows (schedule_id, row_id, fields, updated_at)
				SELECT $1, row_id, fields, $2 FROM schedule_rows_in`+upsert, scheduleID, now)
			return err
		}
		for i := range values {
			values[i] = []any{scheduleID, values[i][0], values[i][1], now}
		}
		return tx.bulkInsert(ctx, "schedule_rows", []string{"schedule_id", "row_id", "fields", "updated_at"}, values, upsert)
	})
}

// InsertScheduleRows stores rows that the schedule does not hold yet, in
// one transaction: with COPY straight into the table on PostgreSQL, in
// batched INSERTs otherwise. Cheaper than UpsertScheduleRows for rows known
// to be new (hold LockSchedule to know it). ECONFLICT when one exists.
func (s *Data) InsertScheduleRows(ctx context.Context, scheduleID string, rows []cx.Row, now time.Time) error {
	if len(rows) == 0 {
		return nil
	}
	now = now.UTC()
	values := make([][]any, len(rows))
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		values[i] = []any{scheduleID, rows[i].ID, string(b), now}
	}
	return s.InTx(ctx, func(tx *Store) error {
		return wrap(tx.bulkInsert(ctx, "schedule_rows", []string{"schedule_id", "row_id", "fields", "updated_at"}, values, ""), "schedule row")
	})
}
