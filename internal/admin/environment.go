package admin

import (
	"context"
	"regexp"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// environment manages the platform's environment variables.
type environment struct{ *core }

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
func (s *environment) setEnvValue(v *store.EnvVar, value string) error {
	if len(value) > maxEnvValue {
		return invalid("value must be at most %d bytes", maxEnvValue)
	}
	if v.Secret {
		v.Value, v.ValueSealed = "", s.secrets().Seal([]byte(value), secrets.LabelEnvValue(v.ID))
	} else {
		v.Value, v.ValueSealed = value, nil
	}
	return nil
}

// ListEnvVars lists the variables by name.
func (s *environment) ListEnvVars(ctx context.Context, c *access.Caller) (*Page[*EnvVarView], error) {
	if err := s.infra(ctx, c, OpEnvVarList); err != nil {
		return nil, err
	}
	rows, err := s.store.EnvVars(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newEnvVarView)), nil
}

// CreateEnvVar adds a variable. EINVALID; ECONFLICT when the name exists.
func (s *environment) CreateEnvVar(ctx context.Context, c *access.Caller, in EnvVarInput) (*EnvVarView, error) {
	if err := s.infra(ctx, c, OpEnvVarCreate); err != nil {
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
	err = s.audited(ctx, c, OpEnvVarCreate, on("", "environment", v.ID), func(tx *store.Store) error { return tx.CreateEnvVar(ctx, v) })
	if err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// EnvVar returns one variable, a secret value masked. ENOTFOUND.
func (s *environment) EnvVar(ctx context.Context, c *access.Caller, id string) (*EnvVarView, error) {
	if err := s.infra(ctx, c, OpEnvVarGet); err != nil {
		return nil, err
	}
	v, err := s.store.EnvVar(ctx, id)
	if err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// UpdateEnvVar changes a variable. EINVALID, ENOTFOUND.
func (s *environment) UpdateEnvVar(ctx context.Context, c *access.Caller, id string, in EnvVarPatch) (*EnvVarView, error) {
	if err := s.infra(ctx, c, OpEnvVarUpdate); err != nil {
		return nil, err
	}
	v, err := auditedRow(ctx, s.core, c, OpEnvVarUpdate, on("", "environment", id), func(tx *store.Store) (*store.EnvVar, error) {
		return tx.UpdateEnvVar(ctx, id, func(v *store.EnvVar) error { return s.patchEnvVar(c, v, in) })
	})
	if err != nil {
		return nil, err
	}
	return newEnvVarView(v), nil
}

// patchEnvVar applies in to v, changed by c. EINVALID.
func (s *environment) patchEnvVar(c *access.Caller, v *store.EnvVar, in EnvVarPatch) error {
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
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *environment) DeleteEnvVar(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, OpEnvVarDelete); err != nil {
		return err
	}
	return s.audited(ctx, c, OpEnvVarDelete, on("", "environment", id), func(tx *store.Store) error { return tx.DeleteEnvVar(ctx, id) })
}

// EnvValue returns a variable's value, a secret one opened: for the
// platform's own use (deployments), never for an API answer. Every opening
// is audited.
func (s *environment) EnvValue(ctx context.Context, c *access.Caller, id string) (string, error) {
	if err := s.infra(ctx, c, OpEnvVarValue); err != nil {
		return "", err
	}
	v, err := s.store.EnvVar(ctx, id)
	if err != nil {
		return "", err
	}
	value := v.Value
	if v.Secret {
		if value, err = s.open(v.ValueSealed, secrets.LabelEnvValue(v.ID), "environment_variables"); err != nil {
			return "", err
		}
	}
	if err := s.audited(ctx, c, OpEnvVarValue, on("", "environment", id), nil); err != nil {
		return "", err
	}
	return value, nil
}
