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

// setEnvValue stores value in v, sealed when v is secret.
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
	return infraList(ctx, s.core, c, OpEnvVarList, s.store.EnvVars, newEnvVarView)
}

// CreateEnvVar adds a variable. EINVALID; ECONFLICT when the name exists.
func (s *environment) CreateEnvVar(ctx context.Context, c *access.Caller, in EnvVarInput) (*EnvVarView, error) {
	v := &store.EnvVar{ID: newID(), Name: in.Name}
	return infraCreate(ctx, s.core, c, OpEnvVarCreate, on("", "environment", v.ID), v, func() error {
		if !envNameRE.MatchString(in.Name) {
			return invalid("name must start with A-Z and hold only A-Z, 0-9 and _ (at most 128 characters)")
		}
		return s.patchEnvVar(c, v, EnvVarPatch{Value: &in.Value, Secret: &in.Secret, Description: &in.Description})
	}, (*store.Store).CreateEnvVar, newEnvVarView)
}

// EnvVar returns one variable, a secret value masked. ENOTFOUND.
func (s *environment) EnvVar(ctx context.Context, c *access.Caller, id string) (*EnvVarView, error) {
	return infraGet(ctx, s.core, c, OpEnvVarGet, id, s.store.EnvVar, newEnvVarView)
}

// UpdateEnvVar changes a variable. EINVALID, ENOTFOUND.
func (s *environment) UpdateEnvVar(ctx context.Context, c *access.Caller, id string, in EnvVarPatch) (*EnvVarView, error) {
	return infraChange(ctx, s.core, c, OpEnvVarUpdate, on("", "environment", id), id, (*store.Store).UpdateEnvVar,
		func(v *store.EnvVar) error { return s.patchEnvVar(c, v, in) }, newEnvVarView)
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
	var f fields
	f.text(&v.Description, "description", in.Description, 500)
	v.UpdatedAt, v.UpdatedBy = s.stamp(), c.UserID
	return f.err
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *environment) DeleteEnvVar(ctx context.Context, c *access.Caller, id string) error {
	return s.infraWrite(ctx, c, OpEnvVarDelete, on("", "environment", id), func(tx *store.Store) error { return tx.DeleteEnvVar(ctx, id) })
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
