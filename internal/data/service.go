package data

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Limits of the data API (D-limits, D-master).
const (
	DefaultPageSize = platform.DefaultPageSize // platform.RecordPages
	MaxPageSize     = platform.MaxPageSize
	// MaxUploadRows is the most rows one cx upload may hold.
	MaxUploadRows = cx.DefaultMaxRows
	// MaxUploadBytes is the largest cx upload body, JSON or multipart.
	MaxUploadBytes = httpapi.MaxUploadBody
	// MaxSheetTextBytes is the most text a spreadsheet upload may hold: the
	// bytes of all its cells, and of a workbook's shared-string table. It is
	// MaxUploadBytes, since a JSON body's values cannot be longer than the
	// body, whereas a workbook's cells may refer to one string many times.
	MaxSheetTextBytes = MaxUploadBytes
	// IdempotencyTTL is how long the first answer to an Idempotency-Key is kept.
	IdempotencyTTL = 24 * time.Hour
)

// Service serves tenant data to authenticated callers. It is safe for
// concurrent use.
type Service struct {
	store      *store.Store
	access     *access.Service
	now        func() time.Time
	maxTenants int // MaxMyTenants; tests lower it
}

// New returns the data service over st; acc decides who may read and
// upload what (the catalog's read_tenant_data and upload_cx_data) and
// audits what it refuses.
func New(st *store.Store, acc *access.Service) *Service {
	return &Service{store: st, access: acc, now: time.Now, maxTenants: MaxMyTenants}
}

// Maintain removes expired idempotency records every interval until ctx ends.
func (s *Service) Maintain(ctx context.Context, interval time.Duration) {
	background.Every(ctx, "data maintenance", interval, interval/10, func(ctx context.Context) error {
		_, err := s.store.DeleteIdempotencyRecords(ctx, s.now().Add(-IdempotencyTTL))
		return err
	})
}
