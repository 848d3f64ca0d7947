package admin

import (
	"context"
	"regexp"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// releases manages the platform's releases.
type releases struct{ *core }

// ReleaseInput creates a draft release. Version is semantic (1.2.3, with
// an optional pre-release suffix), unique; channel is stable (default) or beta.
type ReleaseInput struct {
	Version string `json:"version"`
	Channel string `json:"channel,omitempty"`
	Notes   string `json:"notes,omitempty"`
}

// ReleasePatch changes a release's notes, or its channel while a draft.
type ReleasePatch struct {
	Channel *string `json:"channel,omitempty"`
	Notes   *string `json:"notes,omitempty"`
}

var versionRE = regexp.MustCompile(`^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]{1,50})?$`)

// ReleaseView is a platform release as the API shows it; publishedAt is
// null until it is published.
type ReleaseView struct {
	ID          string     `json:"id"`
	Version     string     `json:"version"`
	Channel     string     `json:"channel"`
	Notes       string     `json:"notes"`
	Status      string     `json:"status"`
	CreatedBy   string     `json:"createdBy"`
	CreatedAt   time.Time  `json:"createdAt"`
	PublishedAt *time.Time `json:"publishedAt"`
}

func newReleaseView(x *store.Release) *ReleaseView {
	return &ReleaseView{ID: x.ID, Version: x.Version, Channel: x.Channel, Notes: x.Notes, Status: x.Status,
		CreatedBy: x.CreatedBy, CreatedAt: x.CreatedAt, PublishedAt: x.PublishedAt}
}

// ListReleases lists releases, newest first.
func (s *releases) ListReleases(ctx context.Context, c *access.Caller, limit int) (*Page[*ReleaseView], error) {
	if err := s.infra(ctx, c, OpReleaseList); err != nil {
		return nil, err
	}
	if err := platform.NewestPages.Check("limit", limit); err != nil {
		return nil, err
	}
	rows, err := s.store.Releases(ctx, limit)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newReleaseView)), nil
}

// CreateRelease adds a draft release. EINVALID; ECONFLICT when the version exists.
func (s *releases) CreateRelease(ctx context.Context, c *access.Caller, in ReleaseInput) (*ReleaseView, error) {
	if err := s.infra(ctx, c, OpReleaseCreate); err != nil {
		return nil, err
	}
	x := &store.Release{ID: newID(), Status: "draft", CreatedBy: c.UserID, CreatedAt: s.stamp(), Channel: "stable"}
	if !versionRE.MatchString(in.Version) {
		return nil, invalid("version must be a semantic version such as 1.4.0")
	}
	x.Version = in.Version
	var err error
	if in.Channel != "" {
		if x.Channel, err = oneOf("channel", in.Channel, "stable", "beta"); err != nil {
			return nil, err
		}
	}
	if x.Notes, err = text("notes", in.Notes, 20000); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpReleaseCreate, on("", "releases", x.ID), func(tx *store.Store) error { return tx.CreateRelease(ctx, x) })
	if err != nil {
		return nil, err
	}
	return newReleaseView(x), nil
}

// Release returns one release. ENOTFOUND.
func (s *releases) Release(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	if err := s.infra(ctx, c, OpReleaseGet); err != nil {
		return nil, err
	}
	return viewing(newReleaseView)(s.store.Release(ctx, id))
}

// UpdateRelease changes a release. EINVALID; ECONFLICT for a channel
// change after publication.
func (s *releases) UpdateRelease(ctx context.Context, c *access.Caller, id string, in ReleasePatch) (*ReleaseView, error) {
	if err := s.infra(ctx, c, OpReleaseUpdate); err != nil {
		return nil, err
	}
	return s.changeRelease(ctx, c, OpReleaseUpdate, id, func(x *store.Release) error {
		var err error
		if in.Channel != nil {
			if x.Status != "draft" && *in.Channel != x.Channel {
				return platform.Errorf(platform.ECONFLICT, "the channel of a %s release cannot change", x.Status)
			}
			if x.Channel, err = oneOf("channel", *in.Channel, "stable", "beta"); err != nil {
				return err
			}
		}
		if in.Notes != nil {
			if x.Notes, err = text("notes", *in.Notes, 20000); err != nil {
				return err
			}
		}
		return nil
	})
}

// PublishRelease publishes a draft release. ECONFLICT when it is not a draft.
func (s *releases) PublishRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.moveRelease(ctx, c, OpReleasePublish, id, "draft", "published")
}

// WithdrawRelease withdraws a published release. ECONFLICT when it is not published.
func (s *releases) WithdrawRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.moveRelease(ctx, c, OpReleaseWithdraw, id, "published", "withdrawn")
}

func (s *releases) moveRelease(ctx context.Context, c *access.Caller, op Operation, id, from, to string) (*ReleaseView, error) {
	if err := s.infra(ctx, c, op); err != nil {
		return nil, err
	}
	return s.changeRelease(ctx, c, op, id, func(x *store.Release) error {
		if x.Status != from {
			return platform.Errorf(platform.ECONFLICT, "the release is %s; only a %s release can become %s", x.Status, from, to)
		}
		x.Status = to
		if to == "published" {
			now := s.stamp()
			x.PublishedAt = &now
		}
		return nil
	})
}

// changeRelease applies change to the release id as op, audited.
func (s *releases) changeRelease(ctx context.Context, c *access.Caller, op Operation, id string, change func(*store.Release) error) (*ReleaseView, error) {
	return viewing(newReleaseView)(auditedRow(ctx, s.core, c, op, on("", "releases", id), func(tx *store.Store) (*store.Release, error) {
		return tx.UpdateRelease(ctx, id, change)
	}))
}
