package store

import (
	"context"
	"time"
)

// UserAttribute defines a custom attribute of users.
type UserAttribute struct {
	ID        string
	Key       string
	Label     string
	Type      string
	Options   []string
	Required  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

const userAttributeColumns = `id, attribute_key, label, type, options, required, created_at, updated_at`

func scanUserAttribute(r Row) (UserAttribute, error) {
	var a UserAttribute
	var opts string
	err := r.Scan(&a.ID, &a.Key, &a.Label, &a.Type, &opts, &a.Required, &a.CreatedAt, &a.UpdatedAt)
	a.Options = decodeList(opts)
	return a, err
}

// CreateUserAttribute stores a definition. ECONFLICT when the key exists.
func (s *Identity) CreateUserAttribute(ctx context.Context, a *UserAttribute) error {
	_, err := s.db.Exec(ctx, `INSERT INTO user_attribute_definitions (`+userAttributeColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, a.ID, a.Key, a.Label, a.Type, jsonList(a.Options), a.Required,
		a.CreatedAt.UTC(), a.UpdatedAt.UTC())
	return wrap(err, "user attribute")
}

// UserAttribute returns one definition. ENOTFOUND.
func (s *Identity) UserAttribute(ctx context.Context, id string) (*UserAttribute, error) {
	return queryOne(ctx, s.db, "user attribute", scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions WHERE id = $1`, id)
}

// UserAttributes lists the definitions by key.
func (s *Identity) UserAttributes(ctx context.Context) ([]UserAttribute, error) {
	return queryAll(ctx, s.db, scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions ORDER BY attribute_key`)
}

// UpdateUserAttribute runs fn on the stored definition in a transaction and
// saves what fn leaves (the key never changes). ENOTFOUND.
func (s *Identity) UpdateUserAttribute(ctx context.Context, id string, fn func(*UserAttribute) error) (*UserAttribute, error) {
	return update(ctx, s.querier, "user attribute", scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions
		WHERE id = $1`, id, fn,
		func(tx *Store, a *UserAttribute) error {
			return tx.execOne(ctx, "user attribute", `UPDATE user_attribute_definitions SET label = $2, type = $3, options = $4,
				required = $5, updated_at = $6 WHERE id = $1`, id, a.Label, a.Type, jsonList(a.Options), a.Required, a.UpdatedAt.UTC())
		})
}

// DeleteUserAttribute removes a definition. ENOTFOUND.
func (s *Identity) DeleteUserAttribute(ctx context.Context, id string) error {
	return s.execOne(ctx, "user attribute", `DELETE FROM user_attribute_definitions WHERE id = $1`, id)
}
