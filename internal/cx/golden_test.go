package cx

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenInput is a testdata/*.input.json file: an upload body and the rows
// already stored in the schedule.
type goldenInput struct {
	Request  json.RawMessage `json:"request"`
	Existing []Row           `json:"existing"`
}

// TestGoldenReports decodes and validates each testdata/*.input.json and
// compares the report's JSON with the matching .golden.json file. Run
// `go test ./internal/cx -run Golden -update` to rewrite them.
//
// spec: R4.5-cx-required, R4.5-cx-parent, R4.5-cx-cycle, D-cx
func TestGoldenReports(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.input.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			var gi goldenInput
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &gi); err != nil {
				t.Fatal(err)
			}
			req, err := DecodeRequest(bytes.NewReader(gi.Request), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			got := MustJSON(t, Validate(req, gi.Existing))
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("report of %s (-want +got):\n%s", in, diff)
			}
		})
	}
}

// MustJSON encodes v as indented JSON without HTML escaping.
func MustJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
