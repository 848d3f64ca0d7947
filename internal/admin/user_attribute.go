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
	if err := s.infra(ctx, c, OpUserAttributeList); err != nil {
		return nil, err
	}
	rows, err := s.store.UserAttributes(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newUserAttributeView)), nil
}

// CreateUserAttribute adds a definition. EINVALID; ECONFLICT when the key exists.
func (s *userAttributes) CreateUserAttribute(ctx context.Context, c *access.Caller, in UserAttributeInput) (*UserAttributeView, error) {
	if err := s.infra(ctx, c, OpUserAttributeCreate); err != nil {
		return nil, err
	}
	now := s.stamp()
	a := &store.UserAttribute{ID: newID(), Required: in.Required, CreatedAt: now, UpdatedAt: now}
	var err error
	if a.Key, err = catalogKey("key", in.Key); err != nil {
		return nil, err
	}
	if a.Label, err = required("label", in.Label, 200); err != nil {
		return nil, err
	}
	if a.Type, err = oneOf("type", in.Type, attributeTypes...); err != nil {
		return nil, err
	}
	if a.Options, err = attributeOptions(a.Type, in.Options); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpUserAttributeCreate, on("", "user-attributes", a.ID), func(tx *store.Store) error {
		return tx.CreateUserAttribute(ctx, a)
	})
	if err != nil {
		return nil, err
	}
	return newUserAttributeView(a), nil
}

// UserAttribute returns one definition. ENOTFOUND.
func (s *userAttributes) UserAttribute(ctx context.Context, c *access.Caller, id string) (*UserAttributeView, error) {
	if err := s.infra(ctx, c, OpUserAttributeGet); err != nil {
		return nil, err
	}
	return viewing(newUserAttributeView)(s.store.UserAttribute(ctx, id))
}

// UpdateUserAttribute changes a definition. EINVALID, ENOTFOUND.
func (s *userAttributes) UpdateUserAttribute(ctx context.Context, c *access.Caller, id string, in UserAttributePatch) (*UserAttributeView, error) {
	if err := s.infra(ctx, c, OpUserAttributeUpdate); err != nil {
		return nil, err
	}
	return viewing(newUserAttributeView)(auditedRow(ctx, s.core, c, OpUserAttributeUpdate, on("", "user-attributes", id),
		func(tx *store.Store) (*store.UserAttribute, error) {
			return tx.UpdateUserAttribute(ctx, id, func(a *store.UserAttribute) error { return s.patchUserAttribute(a, in) })
		}))
}

// patchUserAttribute applies in to a. EINVALID.
func (s *userAttributes) patchUserAttribute(a *store.UserAttribute, in UserAttributePatch) error {
	var err error
	if in.Label != nil {
		if a.Label, err = required("label", *in.Label, 200); err != nil {
			return err
		}
	}
	opts := a.Options
	if in.Type != nil {
		if a.Type, err = oneOf("type", *in.Type, attributeTypes...); err != nil {
			return err
		}
		if a.Type != "enum" {
			opts = nil
		}
	}
	if in.Options != nil {
		opts = *in.Options
	}
	if a.Options, err = attributeOptions(a.Type, opts); err != nil {
		return err
	}
	if in.Required != nil {
		a.Required = *in.Required
	}
	a.UpdatedAt = s.stamp()
	return nil
}

// DeleteUserAttribute removes a definition. ENOTFOUND.
func (s *userAttributes) DeleteUserAttribute(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, OpUserAttributeDelete); err != nil {
		return err
	}
	return s.audited(ctx, c, OpUserAttributeDelete, on("", "user-attributes", id), func(tx *store.Store) error {
		return tx.DeleteUserAttribute(ctx, id)
	})
}
