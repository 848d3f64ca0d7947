package admin

import (
	"context"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// named is what customers and tenants share: a record with a name and a
// settings document, renamed, read, replaced and removed alike.
type named[R any] struct {
	*core
	// load loads the record id and decides op on it (customerFor, tenantFor).
	load func(ctx context.Context, c *access.Caller, id string, op Operation) (*R, error)
	// what names the record for its audit events.
	what func(*R) acted
	// settings is the record's settings document.
	settings func(*R) json.RawMessage
	// write writes its name (unless "") and settings (unless nil):
	// (*store.Store).UpdateCustomer, UpdateTenant.
	write func(tx *store.Store, ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error
	// remove removes it with everything it holds.
	remove func(tx *store.Store, ctx context.Context, id string) error
}

// rename renames the record id as op; a nil name keeps it. EINVALID.
func (n named[R]) rename(ctx context.Context, c *access.Caller, op Operation, id string, name *string) error {
	row, err := n.load(ctx, c, id, op)
	if err != nil {
		return err
	}
	newName, err := newName(name)
	if err != nil {
		return err
	}
	return n.audited(ctx, c, op, n.what(row), func(tx *store.Store) error { return n.write(tx, ctx, id, newName, nil, n.now()) })
}

// delete removes the record id as op.
func (n named[R]) delete(ctx context.Context, c *access.Caller, op Operation, id string) error {
	row, err := n.load(ctx, c, id, op)
	if err != nil {
		return err
	}
	return n.audited(ctx, c, op, n.what(row), func(tx *store.Store) error { return n.remove(tx, ctx, id) })
}

// getSettings answers the settings document of the record id, read as op.
func (n named[R]) getSettings(ctx context.Context, c *access.Caller, op Operation, id string) (json.RawMessage, error) {
	row, err := n.load(ctx, c, id, op)
	if err != nil {
		return nil, err
	}
	return n.settings(row), nil
}

// putSettings replaces the settings document of the record id as op, checked
// by validSettings.
func (n named[R]) putSettings(ctx context.Context, c *access.Caller, op Operation, id string, settings json.RawMessage) (json.RawMessage, error) {
	row, err := n.load(ctx, c, id, op)
	if err != nil {
		return nil, err
	}
	if err := validSettings(settings); err != nil {
		return nil, err
	}
	err = n.audited(ctx, c, op, n.what(row), func(tx *store.Store) error { return n.write(tx, ctx, id, "", settings, n.now()) })
	if err != nil {
		return nil, err
	}
	return settings, nil
}

// maxSettings bounds a settings document.
const maxSettings = 64 << 10

// validSettings checks that a settings document is one JSON object.
func validSettings(raw json.RawMessage) error {
	if len(raw) > maxSettings {
		return platform.Errorf(platform.EINVALID, "settings must be at most %d bytes", maxSettings)
	}
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return platform.Errorf(platform.EINVALID, "settings must be a JSON object")
	}
	return nil
}

// newSettings is the settings document of a new customer or tenant: raw,
// or {} when none is given. EINVALID.
func newSettings(raw json.RawMessage) (json.RawMessage, error) {
	if raw == nil {
		raw = json.RawMessage("{}")
	}
	return raw, validSettings(raw)
}

// newName is the new name a patch gives: "" (the name stays) when it gives
// none, otherwise 1 to 200 characters. EINVALID.
func newName(name *string) (string, error) {
	if name == nil {
		return "", nil
	}
	return cleanName("name", *name)
}
