package admin

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

// userAttributes manages the definitions of custom user attributes.
type userAttributes struct{ *core }

// UserAttributeInput defines an attribute. Key is a lower-case key, unique;
// type is string, number, boolean, date or enum; options (1 to 100
// distinct, non-empty) only and always for enum.
type UserAttributeInput struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Options  []string `json:"options,omitempty"`
	Required bool     `json:"required,omitempty"`
}

// UserAttributePatch changes a definition; nil fields stay (the key never
// changes). Options may change on an enum; the type may change with them.
type UserAttributePatch struct {
	Label    *string   `json:"label,omitempty"`
	Type     *string   `json:"type,omitempty"`
	Options  *[]string `json:"options,omitempty"`
	Required *bool     `json:"required,omitempty"`
}

func attributeOptions(typ string, opts []string) ([]string, error) {
	if typ != "enum" {
		if len(opts) > 0 {
			return nil, invalid("options are only for type enum")
		}
		return []string{}, nil
	}
	if len(opts) == 0 || len(opts) > 100 {
		return nil, invalid("an enum needs 1 to 100 options")
	}
	out := []string{}
	for _, o := range opts {
		o, err := required("option", o, 100)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, o) {
			return nil, invalid("option %q is given twice", o)
		}
		out = append(out, o)
	}
	return out, nil
}

var attributeTypes = []string{"string", "number", "boolean", "date", "enum"}

// UserAttributeView is the definition of a custom user attribute as the
// API shows it.
type UserAttributeView struct {
	ID        string    `json:"id"`
	Key       string    `json:"key"`
	Label     string    `json:"label"`
	Type      string    `json:"type"`
	Options   []string  `json:"options"`
	Required  bool      `json:"required"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func newUserAttributeView(a *store.UserAttribute) *UserAttributeView {
	return &UserAttributeView{ID: a.ID, Key: a.Key, Label: a.Label, Type: a.Type, Options: a.Options, Required: a.Required,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// ListUserAttributes lists the definitions by key.
func (s *userAttributes) ListUserAttributes(ctx context.Context, c *access.Caller) (*Page[*UserAttributeView], error) {
	return infraList(ctx, s.core, c, OpUserAttributeList, s.store.UserAttributes, newUserAttributeView)
}

// CreateUserAttribute adds a definition. EINVALID; ECONFLICT when the key exists.
func (s *userAttributes) CreateUserAttribute(ctx context.Context, c *access.Caller, in UserAttributeInput) (*UserAttributeView, error) {
	now := s.stamp()
	a := &store.UserAttribute{ID: newID(), CreatedAt: now}
	return infraCreate(ctx, s.core, c, OpUserAttributeCreate, on("", "user-attributes", a.ID), a, func() (err error) {
		if a.Key, err = catalogKey("key", in.Key); err == nil {
			err = patchUserAttribute(a, UserAttributePatch{Label: &in.Label, Type: &in.Type, Options: &in.Options, Required: &in.Required}, now)
		}
		return err
	}, (*store.Store).CreateUserAttribute, newUserAttributeView)
}

// UserAttribute returns one definition. ENOTFOUND.
func (s *userAttributes) UserAttribute(ctx context.Context, c *access.Caller, id string) (*UserAttributeView, error) {
	return infraGet(ctx, s.core, c, OpUserAttributeGet, id, s.store.UserAttribute, newUserAttributeView)
}

// UpdateUserAttribute changes a definition. EINVALID, ENOTFOUND.
func (s *userAttributes) UpdateUserAttribute(ctx context.Context, c *access.Caller, id string, in UserAttributePatch) (*UserAttributeView, error) {
	return infraChange(ctx, s.core, c, OpUserAttributeUpdate, on("", "user-attributes", id), id, (*store.Store).UpdateUserAttribute,
		func(a *store.UserAttribute) error { return patchUserAttribute(a, in, s.stamp()) }, newUserAttributeView)
}

// patchUserAttribute applies in to a, changed at now. EINVALID.
func patchUserAttribute(a *store.UserAttribute, in UserAttributePatch, now time.Time) error {
	var f fields
	f.required(&a.Label, "label", in.Label, 200)
	f.oneOf(&a.Type, "type", in.Type, attributeTypes...)
	opts := a.Options
	if in.Type != nil && a.Type != "enum" {
		opts = nil
	}
	set(&opts, in.Options)
	apply(&f, &a.Options, &opts, func(opts []string) ([]string, error) { return attributeOptions(a.Type, opts) })
	set(&a.Required, in.Required)
	a.UpdatedAt = now
	return f.err
}

// DeleteUserAttribute removes a definition. ENOTFOUND.
func (s *userAttributes) DeleteUserAttribute(ctx context.Context, c *access.Caller, id string) error {
	return s.infraWrite(ctx, c, OpUserAttributeDelete, on("", "user-attributes", id), func(tx *store.Store) error {
		return tx.DeleteUserAttribute(ctx, id)
	})
}
