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
	return infraList(ctx, s.core, c, OpReleaseList, func(ctx context.Context) ([]store.Release, error) {
		if err := platform.NewestPages.Check("limit", limit); err != nil {
			return nil, err
		}
		return s.store.Releases(ctx, limit)
	}, newReleaseView)
}

// CreateRelease adds a draft release. EINVALID; ECONFLICT when the version exists.
func (s *releases) CreateRelease(ctx context.Context, c *access.Caller, in ReleaseInput) (*ReleaseView, error) {
	x := &store.Release{ID: newID(), Version: in.Version, Status: "draft", CreatedBy: c.UserID, CreatedAt: s.stamp(), Channel: "stable"}
	return infraCreate(ctx, s.core, c, OpReleaseCreate, on("", "releases", x.ID), x, func() error {
		if !versionRE.MatchString(in.Version) {
			return invalid("version must be a semantic version such as 1.4.0")
		}
		patch := ReleasePatch{Notes: &in.Notes}
		if in.Channel != "" {
			patch.Channel = &in.Channel
		}
		return patchRelease(x, patch)
	}, (*store.Store).CreateRelease, newReleaseView)
}

// Release returns one release. ENOTFOUND.
func (s *releases) Release(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return infraGet(ctx, s.core, c, OpReleaseGet, id, s.store.Release, newReleaseView)
}

// UpdateRelease changes a release. EINVALID; ECONFLICT for a channel
// change after publication.
func (s *releases) UpdateRelease(ctx context.Context, c *access.Caller, id string, in ReleasePatch) (*ReleaseView, error) {
	return s.change(ctx, c, OpReleaseUpdate, id, func(x *store.Release) error { return patchRelease(x, in) })
}

// patchRelease applies in to x. EINVALID; ECONFLICT for a channel change
// after publication.
func patchRelease(x *store.Release, in ReleasePatch) error {
	if in.Channel != nil && x.Status != "draft" && *in.Channel != x.Channel {
		return platform.Errorf(platform.ECONFLICT, "the channel of a %s release cannot change", x.Status)
	}
	var f fields
	f.oneOf(&x.Channel, "channel", in.Channel, "stable", "beta")
	f.text(&x.Notes, "notes", in.Notes, 20000)
	return f.err
}

// PublishRelease publishes a draft release. ECONFLICT when it is not a draft.
func (s *releases) PublishRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.move(ctx, c, OpReleasePublish, id, "draft", "published")
}

// WithdrawRelease withdraws a published release. ECONFLICT when it is not published.
func (s *releases) WithdrawRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.move(ctx, c, OpReleaseWithdraw, id, "published", "withdrawn")
}

// move takes the release id from status from to status to as op.
func (s *releases) move(ctx context.Context, c *access.Caller, op Operation, id, from, to string) (*ReleaseView, error) {
	return s.change(ctx, c, op, id, func(x *store.Release) error {
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

// change applies change to the release id as op, audited.
func (s *releases) change(ctx context.Context, c *access.Caller, op Operation, id string, change func(*store.Release) error) (*ReleaseView, error) {
	return infraChange(ctx, s.core, c, op, on("", "releases", id), id, (*store.Store).UpdateRelease, change, newReleaseView)
}
