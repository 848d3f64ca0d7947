package data

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/store"
)

// Custom field values are shown only with the type their master defines.
// spec: R2.1-custom
func TestFieldValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ, raw string
		want     any // nil: refused
	}{
		{store.FieldNumber, `12`, json.Number("12")},
		{store.FieldNumber, ` -1.5e3 `, json.Number("-1.5e3")},
		{store.FieldNumber, `"12"`, nil},
		{store.FieldNumber, `true`, nil},
		{store.FieldNumber, `1x`, nil},
		{store.FieldString, `"Tower A"`, "Tower A"},
		{store.FieldString, `"caf\u00e9"`, "café"},
		{store.FieldString, `3`, nil},
		{store.FieldString, `null`, nil},
		{store.FieldBoolean, `true`, true},
		{store.FieldBoolean, `false`, false},
		{store.FieldBoolean, `"true"`, nil},
		{store.FieldBoolean, `0`, nil},
		{store.FieldDate, `"2026-02-28"`, "2026-02-28"},
		{store.FieldDate, `"2026-02-30"`, nil},
		{store.FieldDate, `"2026-2-3"`, nil},
		{store.FieldDate, `20260228`, nil},
		{store.FieldStringArray, `["a", "nullable"]`, []string{"a", "nullable"}},
		{store.FieldStringArray, `[]`, []string{}},
		{store.FieldStringArray, `["a", null]`, nil},
		{store.FieldStringArray, `["a", 1]`, nil},
		{store.FieldStringArray, `"a"`, nil},
		{store.FieldStringArray, `{"a": 1}`, nil},
	} {
		got, err := fieldValue(store.MasterField{Key: "k", Type: tc.typ}, json.RawMessage(tc.raw))
		if tc.want == nil {
			if err == nil {
				t.Errorf("%s %s: got %#v, want it refused", tc.typ, tc.raw, got)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, tc.want) {
			t.Errorf("%s %s: got %#v, %v; want %#v", tc.typ, tc.raw, got, err, tc.want)
		}
	}
}

// CheckCustomFields names every key and value that does not fit.
// spec: R2.1-custom
func TestCheckCustomFields(t *testing.T) {
	t.Parallel()
	m := &store.Master{Name: "Building", Fields: []store.MasterField{{Key: "floors", Type: store.FieldNumber}, {Key: "tags", Type: store.FieldStringArray}}}
	if err := CheckCustomFields(m, json.RawMessage(`{"floors": 3, "tags": ["a"]}`)); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{`{"floors": "3"}`, `{"colour": "red"}`, `[]`, `null`, `{"tags": [1]}`} {
		if err := CheckCustomFields(m, json.RawMessage(raw)); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
}
