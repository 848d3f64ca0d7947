package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// Discrepancy statuses.
const (
	DiscrepancyOpen     = "open"
	DiscrepancyResolved = "resolved"
)

// Discrepancy is an item of the discrepancies inbox.
type Discrepancy struct {
	ID         string
	Kind       string
	CustomerID string
	Resource   string
	Summary    string
	Detail     string
	Status     string
	DetectedAt time.Time
	ResolvedAt *time.Time
	ResolvedBy string
	Resolution string
}

const discrepancyColumns = `id, kind, COALESCE(customer_id, ''), resource, summary, detail, status, detected_at, resolved_at,
	resolved_by, resolution`

func scanDiscrepancy(r Row) (Discrepancy, error) {
	var d Discrepancy
	var res sql.NullTime
	err := r.Scan(&d.ID, &d.Kind, &d.CustomerID, &d.Resource, &d.Summary, &d.Detail, &d.Status, &d.DetectedAt, &res,
		&d.ResolvedBy, &d.Resolution)
	d.ResolvedAt = timePtr(res)
	return d, err
}

// discrepancies reads rows only: its columns are not all plain names.
var discrepancies = table[Discrepancy]{"discrepancies", "discrepancy", discrepancyColumns, scanDiscrepancy}

// CreateDiscrepancy stores an inbox item.
func (s *Billing) CreateDiscrepancy(ctx context.Context, d *Discrepancy) error {
	_, err := s.db.Exec(ctx, `INSERT INTO discrepancies (id, kind, customer_id, resource, summary, detail, status, detected_at,
		resolved_at, resolved_by, resolution) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, d.ID, d.Kind,
		nullString(d.CustomerID), d.Resource, d.Summary, d.Detail, d.Status, d.DetectedAt.UTC(), nullTimePtr(d.ResolvedAt),
		d.ResolvedBy, d.Resolution)
	return wrap(err, "discrepancy")
}

// Discrepancy returns one inbox item. ENOTFOUND.
func (s *Billing) Discrepancy(ctx context.Context, id string) (*Discrepancy, error) {
	return discrepancies.get(ctx, s.db, id)
}

// Discrepancies lists inbox items of a status (all when empty), newest
// first: platform-wide items and those of the customers of customers.
func (s *Billing) Discrepancies(ctx context.Context, status string, customers authz.Filter, limit int) ([]Discrepancy, error) {
	args := []any{status}
	w := `($1 = '' OR status = $1) AND (customer_id IS NULL OR ` + scopeCondition(&args, customers, "customer_id", "") + `)`
	return discrepancies.list(ctx, s.db, w, `detected_at DESC, id DESC LIMIT `+arg(&args, platform.NewestPages.Size(limit)), args...)
}

// SetDiscrepancyStatus resolves (resolvedAt set) or reopens (nil) an item.
// ENOTFOUND.
func (s *Billing) SetDiscrepancyStatus(ctx context.Context, id, status string, resolvedAt *time.Time, by, resolution string) error {
	return s.execOne(ctx, "discrepancy", `UPDATE discrepancies SET status = $2, resolved_at = $3, resolved_by = $4,
		resolution = $5 WHERE id = $1`, id, status, nullTimePtr(resolvedAt), by, resolution)
}
