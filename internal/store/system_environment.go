package store

import (
	"context"
	"time"
)

// EnvVar is a platform environment variable. A secret one keeps its value
// sealed in ValueSealed and Value empty.
type EnvVar struct {
	ID          string
	Name        string
	Secret      bool
	Value       string
	ValueSealed []byte
	Description string
	UpdatedAt   time.Time
	UpdatedBy   string
}

const envVarColumns = `id, name, secret, value, value_sealed, description, updated_at, updated_by`

func scanEnvVar(r Row) (EnvVar, error) {
	var v EnvVar
	err := r.Scan(&v.ID, &v.Name, &v.Secret, &v.Value, &v.ValueSealed, &v.Description, &v.UpdatedAt, &v.UpdatedBy)
	return v, err
}

var envVars = table[EnvVar]{"environment_variables", "environment variable", envVarColumns, scanEnvVar}

// CreateEnvVar stores a variable. ECONFLICT when the name exists.
func (s *System) CreateEnvVar(ctx context.Context, v *EnvVar) error {
	return envVars.insert(ctx, s.db, v.ID, v.Name, v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy)
}

// EnvVar returns one variable. ENOTFOUND.
func (s *System) EnvVar(ctx context.Context, id string) (*EnvVar, error) {
	return envVars.get(ctx, s.db, id)
}

// EnvVars lists the variables by name.
func (s *System) EnvVars(ctx context.Context) ([]EnvVar, error) {
	return envVars.list(ctx, s.db, "TRUE", "name")
}

// UpdateEnvVar runs fn on the stored variable in a transaction and saves
// what fn leaves (the name never changes). ENOTFOUND.
func (s *System) UpdateEnvVar(ctx context.Context, id string, fn func(*EnvVar) error) (*EnvVar, error) {
	return envVars.update(ctx, s.querier, id, fn, `secret = $2, value = $3, value_sealed = $4, description = $5,
		updated_at = $6, updated_by = $7`, func(v *EnvVar) []any {
		return []any{v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy}
	})
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *System) DeleteEnvVar(ctx context.Context, id string) error {
	return envVars.delete(ctx, s.querier, id)
}
