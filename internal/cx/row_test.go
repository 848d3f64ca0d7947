package cx

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spec: R4.5-cx-optional
func TestRowFields(t *testing.T) {
	var r Row
	for i, f := range Fields {
		if got := FieldIndex(f); got != i {
			t.Errorf("FieldIndex(%q) = %d, want %d", f, got, i)
		}
		if !r.SetField(f, "v-"+f) {
			t.Fatalf("SetField(%q) = false", f)
		}
	}
	for _, f := range Fields {
		if got, ok := r.Field(f); !ok || got != "v-"+f {
			t.Errorf("Field(%q) = %q, %v", f, got, ok)
		}
	}
	// The JSON names of Row are the canonical names, in order.
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, f := range Fields {
		if back[f] != "v-"+f {
			t.Errorf("JSON key %q = %q", f, back[f])
		}
	}
	if _, ok := r.Field("parentId"); ok {
		t.Error(`Field("parentId") found a field; names are case-sensitive`)
	}
	if r.SetField("Nope", "x") {
		t.Error(`SetField("Nope") = true`)
	}
}

// spec: D-cx
func TestMatchField(t *testing.T) {
	type result struct {
		Field string
		Exact bool
	}
	for _, tc := range []struct {
		key  string
		want result
	}{
		{"ID", result{"ID", true}},
		{"PM Email Address", result{"PM Email Address", true}},
		{"id", result{"ID", false}},
		{"parentId", result{"ParentID", false}},
		{"pm email address", result{"PM Email Address", false}},
		{"Name ", result{"Name", false}},
		{"Colour", result{"", false}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			f, exact := MatchField(tc.key)
			if diff := cmp.Diff(tc.want, result{f, exact}); diff != "" {
				t.Errorf("MatchField(%q) (-want +got):\n%s", tc.key, diff)
			}
		})
	}
}
