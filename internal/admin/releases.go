package admin

import (
	"context"
	"regexp"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// ---- releases ----

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
func (s *Service) ListReleases(ctx context.Context, c *access.Caller, limit int) (*Page[*ReleaseView], error) {
	if err := s.infra(ctx, c, authz.ManageReleases, false); err != nil {
		return nil, err
	}
	rows, err := s.store.Releases(ctx, limit)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newReleaseView)), nil
}

// CreateRelease adds a draft release. EINVALID; ECONFLICT when the version exists.
func (s *Service) CreateRelease(ctx context.Context, c *access.Caller, in ReleaseInput) (*ReleaseView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
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
	if err := s.store.CreateRelease(ctx, x); err != nil {
		return nil, err
	}
	return newReleaseView(x), nil
}

// Release returns one release. ENOTFOUND.
func (s *Service) Release(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, false); err != nil {
		return nil, err
	}
	return viewing(newReleaseView)(s.store.Release(ctx, id))
}

// UpdateRelease changes a release. EINVALID; ECONFLICT for a channel
// change after publication.
func (s *Service) UpdateRelease(ctx context.Context, c *access.Caller, id string, in ReleasePatch) (*ReleaseView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return nil, err
	}
	return viewing(newReleaseView)(s.store.UpdateRelease(ctx, id, func(x *store.Release) error {
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
	}))
}

// PublishRelease publishes a draft release. ECONFLICT when it is not a draft.
func (s *Service) PublishRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.moveRelease(ctx, c, id, "draft", "published")
}

// WithdrawRelease withdraws a published release. ECONFLICT when it is not published.
func (s *Service) WithdrawRelease(ctx context.Context, c *access.Caller, id string) (*ReleaseView, error) {
	return s.moveRelease(ctx, c, id, "published", "withdrawn")
}

func (s *Service) moveRelease(ctx context.Context, c *access.Caller, id, from, to string) (*ReleaseView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return nil, err
	}
	return viewing(newReleaseView)(s.store.UpdateRelease(ctx, id, func(x *store.Release) error {
		if x.Status != from {
			return platform.Errorf(platform.ECONFLICT, "the release is %s; only a %s release can become %s", x.Status, from, to)
		}
		x.Status = to
		if to == "published" {
			now := s.stamp()
			x.PublishedAt = &now
		}
		return nil
	}))
}

// ---- environment variables ----

// EnvVarView is an environment variable as the API shows it: the value of
// a secret one is masked.
type EnvVarView struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Secret      bool      `json:"secret"`
	Value       string    `json:"value"`
	Description string    `json:"description"`
	UpdatedAt   time.Time `json:"updatedAt"`
	UpdatedBy   string    `json:"updatedBy"`
}

// SecretMask stands in for the value of a secret environment variable.
const SecretMask = "********"

func newEnvVarView(v *store.EnvVar) *EnvVarView {
	out := &EnvVarView{ID: v.ID, Name: v.Name, Secret: v.Secret, Value: v.Value, Description: v.Description,
		UpdatedAt: v.UpdatedAt, UpdatedBy: v.UpdatedBy}
	if v.Secret {
		out.Value = SecretMask
	}
	return out
}

// EnvVarInput creates a variable. Name is upper case (A-Z, 0-9, _), unique;
// a secret value is sealed and never shown again.
type EnvVarInput struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	Secret      bool   `json:"secret,omitempty"`
	Description string `json:"description,omitempty"`
}

// EnvVarPatch changes a variable; nil fields stay (the name never changes).
// Making a secret variable non-secret needs its value.
type EnvVarPatch struct {
	Value       *string `json:"value,omitempty"`
	Secret      *bool   `json:"secret,omitempty"`
	Description *string `json:"description,omitempty"`
}

var envNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,127}$`)

const maxEnvValue = 32 << 10

// setValue stores value in v, sealed when v is secret.
func (s *Service) setEnvValue(v *store.EnvVar, value string) error {
	if len(value) > maxEnvValue {
		return invalid("value must be at most %d bytes", maxEnvValue)
	}
	if v.Secret {
		v.Value, v.ValueSealed = "", s.seal(value, "environment_variables", "value", v.ID)
	} else {
		v.Value, v.ValueSealed = value, nil
	}
	return nil
}

// ListEnvVars lists the variables by name.
func (s *Service) ListEnvVars(ctx context.Context, c *access.Caller) (*Page[*EnvVarView], error) {
	if err := s.infra(ctx, c, authz.ManageReleases, false); err != nil {
		return nil, err
	}
	rows, err := s.store.EnvVars(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*EnvVarView, 0, len(rows))
	for i := range rows {
		out = append(out, newEnvVarView(&rows[i]))
	}
	return WholePage(out), nil
}

// CreateEnvVar adds a variable. EINVALID; ECONFLICT when the name exists.
func (s *Service) CreateEnvVar(ctx context.Context, c *access.Caller, in EnvVarInput) (*EnvVarView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return nil, err
	}
	if !envNameRE.MatchString(in.Name) {
		return nil, invalid("name must start with A-Z and hold only A-Z, 0-9 and _ (at most 128 characters)")
	}
	v := &store.EnvVar{ID: newID(), Name: in.Name, Secret: in.Secret, UpdatedAt: s.stamp(), UpdatedBy: c.UserID}
	var err error
	if v.Description, err = text("description", in.Description, 500); err != nil {
		return nil, err
	}
	if err := s.setEnvValue(v, in.Value); err != nil {
		return nil, err
	}
	if err := s.store.CreateEnvVar(ctx, v); err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// EnvVar returns one variable, a secret value masked. ENOTFOUND.
func (s *Service) EnvVar(ctx context.Context, c *access.Caller, id string) (*EnvVarView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, false); err != nil {
		return nil, err
	}
	v, err := s.store.EnvVar(ctx, id)
	if err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// UpdateEnvVar changes a variable. EINVALID, ENOTFOUND.
func (s *Service) UpdateEnvVar(ctx context.Context, c *access.Caller, id string, in EnvVarPatch) (*EnvVarView, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return nil, err
	}
	v, err := s.store.UpdateEnvVar(ctx, id, func(v *store.EnvVar) error {
		value, hasValue := v.Value, false
		if in.Value != nil {
			value, hasValue = *in.Value, true
		}
		if in.Secret != nil && *in.Secret != v.Secret {
			if v.Secret && !hasValue {
				return invalid("a secret value is never revealed; give the value to make the variable non-secret")
			}
			if !v.Secret && !hasValue {
				hasValue = true // seal the plain value
			}
			v.Secret = *in.Secret
		}
		if hasValue {
			if err := s.setEnvValue(v, value); err != nil {
				return err
			}
		}
		if in.Description != nil {
			d, err := text("description", *in.Description, 500)
			if err != nil {
				return err
			}
			v.Description = d
		}
		v.UpdatedAt, v.UpdatedBy = s.stamp(), c.UserID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *Service) DeleteEnvVar(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return err
	}
	return s.store.DeleteEnvVar(ctx, id)
}

// EnvValue returns a variable's value, a secret one opened: for the
// platform's own use (deployments), never for an API answer.
func (s *Service) EnvValue(ctx context.Context, c *access.Caller, id string) (string, error) {
	if err := s.infra(ctx, c, authz.ManageReleases, true); err != nil {
		return "", err
	}
	v, err := s.store.EnvVar(ctx, id)
	if err != nil {
		return "", err
	}
	if !v.Secret {
		return v.Value, nil
	}
	return s.open(v.ValueSealed, "environment_variables", "value", v.ID)
}
