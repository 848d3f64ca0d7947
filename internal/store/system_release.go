package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Release is a platform release.
type Release struct {
	ID          string
	Version     string
	Channel     string
	Notes       string
	Status      string
	CreatedBy   string
	CreatedAt   time.Time
	PublishedAt *time.Time
}

const releaseColumns = `id, version, channel, notes, status, created_by, created_at, published_at`

func scanRelease(r Row) (Release, error) {
	var x Release
	var pub sql.NullTime
	err := r.Scan(&x.ID, &x.Version, &x.Channel, &x.Notes, &x.Status, &x.CreatedBy, &x.CreatedAt, &pub)
	x.PublishedAt = timePtr(pub)
	return x, err
}

var releases = table[Release]{"releases", "release", releaseColumns, scanRelease}

// CreateRelease stores a release. ECONFLICT when the version exists.
func (s *System) CreateRelease(ctx context.Context, x *Release) error {
	return releases.insert(ctx, s.db, x.ID, x.Version, x.Channel, x.Notes, x.Status, x.CreatedBy, x.CreatedAt.UTC(),
		nullTimePtr(x.PublishedAt))
}

// Release returns one release. ENOTFOUND.
func (s *System) Release(ctx context.Context, id string) (*Release, error) {
	return releases.get(ctx, s.db, id)
}

// Releases lists releases, newest first.
func (s *System) Releases(ctx context.Context, limit int) ([]Release, error) {
	return releases.list(ctx, s.db, "TRUE", "created_at DESC, id DESC LIMIT $1", platform.NewestPages.Size(limit))
}

// UpdateRelease runs fn on the stored release in a transaction and saves
// what fn leaves. ENOTFOUND.
func (s *System) UpdateRelease(ctx context.Context, id string, fn func(*Release) error) (*Release, error) {
	return releases.update(ctx, s.querier, id, fn, `channel = $2, notes = $3, status = $4, published_at = $5`,
		func(x *Release) []any { return []any{x.Channel, x.Notes, x.Status, nullTimePtr(x.PublishedAt)} })
}
