package store

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Field types of a master.
const (
	FieldNumber      = "number"
	FieldString      = "string"
	FieldBoolean     = "boolean"
	FieldDate        = "date"
	FieldStringArray = "string_array"
)

// MasterField defines one key of a master's records' customFields.
type MasterField struct {
	Key  string
	Type string
}

// Master is a named kind of master record of one tenant, with the fields its
// records carry.
type Master struct {
	ID        string
	TenantID  string
	Name      string
	Fields    []MasterField
	CreatedAt time.Time
}

// Field returns the definition of key, and false when the master has none.
func (m *Master) Field(key string) (MasterField, bool) {
	for _, f := range m.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return MasterField{}, false
}

var fieldKey = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_ -]{0,63}$`)

// CreateMaster stores a master. EINVALID for a field key that is not 1 to 64
// letters, digits, '_', '-' or spaces, a key given twice, or an unknown type;
// ECONFLICT when the tenant has a master of that name.
func (s *Data) CreateMaster(ctx context.Context, m *Master) error {
	seen := map[string]bool{}
	for _, f := range m.Fields {
		if !fieldKey.MatchString(f.Key) || seen[f.Key] {
			return platform.Errorf(platform.EINVALID, "master %s: field key %q is invalid or repeated", m.Name, f.Key)
		}
		seen[f.Key] = true
		switch f.Type {
		case FieldNumber, FieldString, FieldBoolean, FieldDate, FieldStringArray:
		default:
			return platform.Errorf(platform.EINVALID, "master %s: field %q has unknown type %q", m.Name, f.Key, f.Type)
		}
	}
	fields, err := encodeFields(m.Fields)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO masters (id, tenant_id, name, fields, created_at) VALUES ($1, $2, $3, $4, $5)`,
		m.ID, m.TenantID, m.Name, fields, m.CreatedAt.UTC())
	return wrap(err, "master")
}

// masterColumns are the columns of masters (aliased m) in Master's order,
// scanned to masterDest (the fields column to fields, for decodeFields).
const masterColumns = `m.id, m.tenant_id, m.name, m.fields, m.created_at`

func masterDest(m *Master, fields *string) []any {
	return []any{&m.ID, &m.TenantID, &m.Name, fields, &m.CreatedAt}
}

// scanMaster scans a row of masterColumns and then the columns of after.
func scanMaster(r Row, m *Master, after ...any) error {
	var fields string
	if err := r.Scan(append(masterDest(m, &fields), after...)...); err != nil {
		return err
	}
	return decodeFields(m, fields)
}

// encodeFields writes the masters.fields column: a JSON array of
// {"key": …, "type": …} objects.
func encodeFields(fs []MasterField) (string, error) {
	out := make([]map[string]string, len(fs))
	for i, f := range fs {
		out[i] = map[string]string{"key": f.Key, "type": f.Type}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// decodeFields reads what encodeFields wrote.
func decodeFields(m *Master, column string) error {
	var raw []map[string]string
	if err := json.Unmarshal([]byte(column), &raw); err != nil {
		return fmt.Errorf("master %s: fields: %w", m.ID, err)
	}
	m.Fields = make([]MasterField, 0, len(raw))
	for _, f := range raw {
		m.Fields = append(m.Fields, MasterField{Key: f["key"], Type: f["type"]})
	}
	return nil
}

// MastersByName returns the masters called name among the tenants f selects,
// ordered by tenant. An empty result is no error.
func (s *Data) MastersByName(ctx context.Context, name string, f TenantFilter) ([]Master, error) {
	args := []any{name}
	cond, ok := f.where(&args)
	if !ok {
		return nil, nil
	}
	return queryAll(ctx, s.db, func(r Row) (Master, error) {
		var m Master
		return m, scanMaster(r, &m)
	}, `SELECT `+masterColumns+` FROM masters m JOIN tenants t ON t.id = m.tenant_id
		WHERE m.name = $1 AND `+cond+` ORDER BY m.tenant_id`, args...)
}
