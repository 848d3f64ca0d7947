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

// CreateEnvVar stores a variable. ECONFLICT when the name exists.
func (s *System) CreateEnvVar(ctx context.Context, v *EnvVar) error {
	_, err := s.db.Exec(ctx, `INSERT INTO environment_variables (`+envVarColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		v.ID, v.Name, v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy)
	return wrap(err, "environment variable")
}

// EnvVar returns one variable. ENOTFOUND.
func (s *System) EnvVar(ctx context.Context, id string) (*EnvVar, error) {
	return queryOne(ctx, s.db, "environment variable", scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables WHERE id = $1`, id)
}

// EnvVars lists the variables by name.
func (s *System) EnvVars(ctx context.Context) ([]EnvVar, error) {
	return queryAll(ctx, s.db, scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables ORDER BY name`)
}

// UpdateEnvVar runs fn on the stored variable in a transaction and saves
// what fn leaves (the name never changes). ENOTFOUND.
func (s *System) UpdateEnvVar(ctx context.Context, id string, fn func(*EnvVar) error) (*EnvVar, error) {
	return update(ctx, s.querier, "environment variable", scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables WHERE id = $1`, id, fn,
		func(tx *Store, v *EnvVar) error {
			return tx.execOne(ctx, "environment variable", `UPDATE environment_variables SET secret = $2, value = $3,
				value_sealed = $4, description = $5, updated_at = $6, updated_by = $7 WHERE id = $1`,
				id, v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy)
		})
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *System) DeleteEnvVar(ctx context.Context, id string) error {
	return s.execOne(ctx, "environment variable", `DELETE FROM environment_variables WHERE id = $1`, id)
}
