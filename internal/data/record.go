package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Record is one master record as the data API shows it (R2.1-fields).
// CustomFields holds the keys the record's master defines, each with a value
// of the defined type: json.Number, string, bool, a YYYY-MM-DD string or
// []string.
type Record struct {
	ID           string
	MasterID     string
	CustomFields map[string]any
	ParentID     string // empty: no parent
	Slug         string
	RefID        string
	TenantID     string
	ProjectID    string
	CreatedBy    string
	CreatedAt    time.Time
	IsDeleted    bool
}

// TimeFormat is createdAt's format: ISO 8601 UTC with milliseconds (R2.1-time).
const TimeFormat = "2006-01-02T15:04:05.000Z"

// recordJSON is exactly the fields of R2.1-fields, in the spec's order.
type recordJSON struct {
	UID          string         `json:"_id"`
	ID           string         `json:"id"`
	CustomFields map[string]any `json:"customFields"`
	ParentID     *string        `json:"parentID"`
	Slug         string         `json:"slug"`
	RefID        string         `json:"refId"`
	TenantID     string         `json:"tenantID"`
	ProjectID    string         `json:"projectID"`
	CreatedBy    string         `json:"createdBy"`
	CreatedAt    string         `json:"createdAt"`
	IsDeleted    bool           `json:"isDeleted"`
}

// MarshalJSON writes the record in the shape of R2.1-fields: _id and id carry
// the same value, parentID is null without a parent, createdAt is UTC with
// milliseconds.
func (r Record) MarshalJSON() ([]byte, error) {
	out := recordJSON{UID: r.ID, ID: r.ID, CustomFields: r.CustomFields, Slug: r.Slug, RefID: r.RefID,
		TenantID: r.TenantID, ProjectID: r.ProjectID, CreatedBy: r.CreatedBy,
		CreatedAt: r.CreatedAt.UTC().Format(TimeFormat), IsDeleted: r.IsDeleted}
	if out.CustomFields == nil {
		out.CustomFields = map[string]any{}
	}
	if r.ParentID != "" {
		p := r.ParentID
		out.ParentID = &p
	}
	return json.Marshal(out)
}

// CreatedAtString returns createdAt as the API writes it.
func (r *Record) CreatedAtString() string { return r.CreatedAt.UTC().Format(TimeFormat) }

// projectFields returns the stored custom fields of a record as its master
// defines them: keys the master does not define, and values not of the
// defined type, are left out, so every value shown is one of the types of
// R2.1-custom even when a master's definition changed after the record was
// written.
func projectFields(m *store.Master, raw json.RawMessage) map[string]any {
	out := make(map[string]any, len(m.Fields))
	if len(raw) == 0 {
		return out
	}
	var stored map[string]json.RawMessage
	if err := json.Unmarshal(raw, &stored); err != nil {
		return out
	}
	for _, f := range m.Fields {
		v, ok := stored[f.Key]
		if !ok {
			continue
		}
		if val, err := fieldValue(f, v); err == nil {
			out[f.Key] = val
		}
	}
	return out
}

// fieldValue decodes one custom field value of type f.Type. An error says
// why the value does not fit.
func fieldValue(f store.MasterField, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("field %q: not a JSON value", f.Key)
	}
	mismatch := fmt.Errorf("field %q: the value is not of type %s", f.Key, f.Type)
	switch f.Type {
	case store.FieldNumber:
		if c := raw[0]; (c == '-' || (c >= '0' && c <= '9')) && json.Valid(raw) {
			return json.Number(raw), nil
		}
	case store.FieldString, store.FieldDate:
		var s string
		if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, mismatch
		}
		if f.Type == store.FieldDate && !isDate(s) {
			return nil, mismatch
		}
		return s, nil
	case store.FieldBoolean:
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	case store.FieldStringArray:
		var elems []json.RawMessage
		if raw[0] != '[' || json.Unmarshal(raw, &elems) != nil {
			return nil, mismatch
		}
		arr := make([]string, len(elems))
		for i, e := range elems {
			if len(e) == 0 || e[0] != '"' || json.Unmarshal(e, &arr[i]) != nil {
				return nil, fmt.Errorf("field %q: every element must be a string", f.Key)
			}
		}
		return arr, nil
	}
	return nil, mismatch
}

// isDate reports whether s is a calendar date written YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// CheckCustomFields checks a record's custom fields against its master (R2.1-custom): a JSON
// object whose keys the master defines and whose values have the defined
// types. EINVALID names every problem.
func CheckCustomFields(m *store.Master, raw json.RawMessage) error {
	var stored map[string]json.RawMessage
	if err := json.Unmarshal(raw, &stored); err != nil || stored == nil {
		return platform.Errorf(platform.EINVALID, "customFields must be a JSON object")
	}
	var problems []string
	for k, v := range stored {
		f, ok := m.Field(k)
		if !ok {
			problems = append(problems, fmt.Sprintf("field %q is not defined by master %s", k, m.Name))
			continue
		}
		if _, err := fieldValue(f, v); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		e := platform.Errorf(platform.EINVALID, "customFields do not fit master %s", m.Name)
		e.Details = problems
		return e
	}
	return nil
}
