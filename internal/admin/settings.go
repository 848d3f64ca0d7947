package admin

import (
	"context"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Customers and tenants both have a name and a settings document, written
// by the same kind of store call.

// nameAndSettings writes a customer's or tenant's name (unless "") and
// settings (unless nil): store.UpdateCustomer, store.UpdateTenant.
type nameAndSettings func(ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error

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

// rename writes name unless it is "" (the name stays).
func (s *core) rename(ctx context.Context, id, name string, write nameAndSettings) error {
	return write(ctx, id, name, nil, s.now())
}

// putSettings replaces a settings document, checked by validSettings.
func (s *core) putSettings(ctx context.Context, id string, settings json.RawMessage, write nameAndSettings) error {
	return write(ctx, id, "", settings, s.now())
}
