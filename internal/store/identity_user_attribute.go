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

var userAttributes = table[UserAttribute]{"user_attribute_definitions", "user attribute", userAttributeColumns, scanUserAttribute}

// CreateUserAttribute stores a definition. ECONFLICT when the key exists.
func (s *Identity) CreateUserAttribute(ctx context.Context, a *UserAttribute) error {
	return userAttributes.insert(ctx, s.db, a.ID, a.Key, a.Label, a.Type, jsonList(a.Options), a.Required, a.CreatedAt.UTC(),
		a.UpdatedAt.UTC())
}

// UserAttribute returns one definition. ENOTFOUND.
func (s *Identity) UserAttribute(ctx context.Context, id string) (*UserAttribute, error) {
	return userAttributes.get(ctx, s.db, id)
}

// UserAttributes lists the definitions by key.
func (s *Identity) UserAttributes(ctx context.Context) ([]UserAttribute, error) {
	return userAttributes.list(ctx, s.db, "TRUE", "attribute_key")
}

// UpdateUserAttribute runs fn on the stored definition in a transaction and
// saves what fn leaves (the key never changes). ENOTFOUND.
func (s *Identity) UpdateUserAttribute(ctx context.Context, id string, fn func(*UserAttribute) error) (*UserAttribute, error) {
	return userAttributes.update(ctx, s.querier, id, fn, `label = $2, type = $3, options = $4, required = $5, updated_at = $6`,
		func(a *UserAttribute) []any {
			return []any{a.Label, a.Type, jsonList(a.Options), a.Required, a.UpdatedAt.UTC()}
		})
}

// DeleteUserAttribute removes a definition. ENOTFOUND.
func (s *Identity) DeleteUserAttribute(ctx context.Context, id string) error {
	return userAttributes.delete(ctx, s.querier, id)
}
