package cx

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func knownSet(ids ...string) func(string) bool {
	return func(id string) bool { return slices.Contains(ids, id) }
}

func fs(id string) Predecessor { return Predecessor{ID: id, Type: TypeFS, LagUnit: DefaultLagUnit} }

// spec: D-cx
func TestParsePredecessors(t *testing.T) {
	known := knownSet("AHU-1", "AHU-1FS", "A", "B", "C", "3", "P-2", "FS", "AHU 2")
	for _, tc := range []struct {
		name string
		in   string
		want []Predecessor
	}{
		{"Empty", "", nil},
		{"Blank", "  ", nil},
		{"PlainID", "AHU-1", []Predecessor{fs("AHU-1")}},
		{"ExactIDWins", "AHU-1FS", []Predecessor{fs("AHU-1FS")}},
		{"TypeSuffixOfUnknownID", "AHU-9FS", []Predecessor{fs("AHU-9")}},
		{"TypeAndLag", "3FS+2d", []Predecessor{{ID: "3", Type: TypeFS, Lag: 2, LagUnit: "d"}}},
		{"SpacesAndLead", "P-2 SS -1w", []Predecessor{{ID: "P-2", Type: TypeSS, Lag: -1, LagUnit: "w"}}},
		{"Separators", "A;B,C", []Predecessor{fs("A"), fs("B"), fs("C")}},
		{"SpacesAroundItems", " A ; B , C ", []Predecessor{fs("A"), fs("B"), fs("C")}},
		{"LagWithoutUnit", "A FF+3", []Predecessor{{ID: "A", Type: TypeFF, Lag: 3, LagUnit: "d"}}},
		{"Months", "A SF-2mo", []Predecessor{{ID: "A", Type: TypeSF, Lag: -2, LagUnit: "mo"}}},
		{"Minutes", "A FS+30m", []Predecessor{{ID: "A", Type: TypeFS, Lag: 30, LagUnit: "m"}}},
		{"Hours", "A FS+4h", []Predecessor{{ID: "A", Type: TypeFS, Lag: 4, LagUnit: "h"}}},
		{"Percent", "A SS+50%", []Predecessor{{ID: "A", Type: TypeSS, Lag: 50, LagUnit: "%"}}},
		{"SpacesInsideLag", "A SS + 5 d", []Predecessor{{ID: "A", Type: TypeSS, Lag: 5, LagUnit: "d"}}},
		{"IDWithSpace", "AHU 2", []Predecessor{fs("AHU 2")}},
		{"IDWithSpaceAndType", "AHU 2 SS", []Predecessor{{ID: "AHU 2", Type: TypeSS, LagUnit: "d"}}},
		{"UnknownIDThatLooksLikeALag", "P-7", []Predecessor{fs("P-7")}},
		{"KnownIDThatIsAType", "FS", []Predecessor{fs("FS")}},
		{"ZeroLag", "A FS+0w", []Predecessor{{ID: "A", Type: TypeFS, LagUnit: "w"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePredecessors(tc.in, known)
			if err != nil {
				t.Fatalf("ParsePredecessors(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParsePredecessors(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// spec: D-cx
func TestParsePredecessorsErrors(t *testing.T) {
	known := knownSet("A", "B")
	for _, tc := range []struct {
		name string
		in   string
		want PredecessorError
	}{
		{"EmptyItem", "A,,B", PredecessorError{Item: "", N: 2}},
		{"TrailingSeparator", "A,B;", PredecessorError{Item: "", N: 3}},
		{"LeadingSeparator", ",A", PredecessorError{Item: "", N: 1}},
		{"LagWithoutType", "A+2d", PredecessorError{Item: "A+2d", N: 1}},
		{"LagWithoutTypeSpaced", "B, A -1w", PredecessorError{Item: "A -1w", N: 2}},
		{"BadUnit", "A FS+2y", PredecessorError{Item: "A FS+2y", N: 1}},
		{"NoNumber", "A SS+d", PredecessorError{Item: "A SS+d", N: 1}},
		{"TypeWithoutID", "SS+1d", PredecessorError{Item: "SS+1d", N: 1}},
		{"LagTooLarge", "A FS+1234567d", PredecessorError{Item: "A FS+1234567d", N: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePredecessors(tc.in, known)
			var pe *PredecessorError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePredecessors(%q) = %v, %v; want a *PredecessorError", tc.in, got, err)
			}
			if got != nil {
				t.Errorf("ParsePredecessors(%q) returned items with an error: %v", tc.in, got)
			}
			if diff := cmp.Diff(tc.want, *pe, cmpopts.IgnoreFields(PredecessorError{}, "Reason")); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// spec: D-cx
func TestFormatPredecessors(t *testing.T) {
	ps := []Predecessor{fs("A"), {ID: "P-2", Type: TypeSS, Lag: -1, LagUnit: "w"}, {ID: "B", Type: TypeFF, LagUnit: "h"}}
	if got, want := FormatPredecessors(ps), "A FS, P-2 SS-1w, B FF+0h"; got != want {
		t.Errorf("FormatPredecessors = %q, want %q", got, want)
	}
}

// spec: D-cx
func FuzzParsePredecessors(f *testing.F) {
	for _, s := range []string{"AHU-1", "AHU-1FS", "3FS+2d", "P-2 SS -1w", "A;B,C", "A,,B", "A SS+50%", "X FF-2mo", "FS", " ; ", "A+2d", "é SS+1m"} {
		f.Add(s, "AHU-1FS\nA\nP-2")
	}
	f.Fuzz(func(t *testing.T, s, knownList string) {
		known := knownSet(strings.Split(knownList, "\n")...)
		ps, err := ParsePredecessors(s, known)
		if err != nil {
			var pe *PredecessorError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *PredecessorError", err)
			}
			return
		}
		for _, p := range ps {
			switch {
			case p.ID == "" || strings.TrimSpace(p.ID) != p.ID || strings.ContainsAny(p.ID, ",;"):
				t.Fatalf("bad ID %q from %q", p.ID, s)
			case !slices.Contains([]string{TypeFS, TypeSS, TypeFF, TypeSF}, p.Type):
				t.Fatalf("bad type %q from %q", p.Type, s)
			case !slices.Contains([]string{"m", "h", "d", "w", "mo", "%"}, p.LagUnit):
				t.Fatalf("bad unit %q from %q", p.LagUnit, s)
			case p.Lag > 999_999 || p.Lag < -999_999:
				t.Fatalf("lag %d out of range from %q", p.Lag, s)
			}
			if known(p.String()) {
				t.Skip("a formatted item is itself a known ID, so it reads back as that ID")
			}
		}
		again, err := ParsePredecessors(FormatPredecessors(ps), known)
		if err != nil {
			t.Fatalf("%q → %q: %v", s, FormatPredecessors(ps), err)
		}
		if diff := cmp.Diff(ps, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%q → %q read back differently (-first +again):\n%s", s, FormatPredecessors(ps), diff)
		}
	})
}
