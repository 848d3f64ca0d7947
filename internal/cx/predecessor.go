package cx

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Dependency types of a predecessor link.
const (
	TypeFS = "FS" // finish to start, the default
	TypeSS = "SS"
	TypeFF = "FF"
	TypeSF = "SF"
)

// DefaultLagUnit is the unit of a lag written without one: days.
const DefaultLagUnit = "d"

// maxLagDigits bounds a lag to 999999 units.
const maxLagDigits = 6

// Predecessor is one item of a row's Predecessors: the row ID it depends on,
// the dependency type and a lag (negative for a lead) in LagUnit, one of m,
// h, d, w, mo and %.
type Predecessor struct {
	ID      string
	Type    string
	Lag     int
	LagUnit string
}

// String writes p so that ParsePredecessors reads it back: "ID TYPE", with
// "+Nunit" or "-Nunit" appended unless the lag is zero days.
func (p Predecessor) String() string {
	s := p.ID + " " + p.Type
	if p.Lag != 0 || p.LagUnit != DefaultLagUnit {
		s += fmt.Sprintf("%+d%s", p.Lag, p.LagUnit)
	}
	return s
}

// FormatPredecessors joins items with ", ".
func FormatPredecessors(ps []Predecessor) string {
	items := make([]string, len(ps))
	for i, p := range ps {
		items[i] = p.String()
	}
	return strings.Join(items, ", ")
}

// PredecessorError is a Predecessors value that does not follow the grammar.
// Item is the offending item as written, N its 1-based position.
type PredecessorError struct {
	Item   string
	N      int
	Reason string
}

func (e *PredecessorError) Error() string {
	if e.Item == "" {
		return fmt.Sprintf("item %d is empty: %s", e.N, e.Reason)
	}
	return fmt.Sprintf("%q: %s", e.Item, e.Reason)
}

// ParsePredecessors reads a Predecessors value: items separated by "," or
// ";", each an ID, an optional type FS|SS|FF|SF (default FS) and, after a
// type only, an optional lag +N or -N with unit m|h|d|w|mo|% (default d);
// spaces may separate the parts ("P-2 SS -1w"). When the whole item is an ID
// for which known returns true, it is that ID with the defaults, even if it
// ends like a type ("AHU-1FS"). An empty or blank s has no predecessors.
// Errors are *PredecessorError.
func ParsePredecessors(s string, known func(id string) bool) ([]Predecessor, error) {
	ps, err := appendPredecessors(nil, s, known)
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// appendPredecessors appends the items of s to dst; on error, dst holds the
// items before the bad one.
func appendPredecessors(dst []Predecessor, s string, known func(id string) bool) ([]Predecessor, error) {
	if strings.TrimSpace(s) == "" {
		return dst, nil
	}
	for n := 1; ; n++ {
		item, rest, more := cutAny(s, ",;")
		p, err := parseItem(strings.TrimSpace(item), known)
		if err != nil {
			err.N = n
			return dst, err
		}
		dst = append(dst, p)
		if !more {
			return dst, nil
		}
		s = rest
	}
}

func cutAny(s, seps string) (before, after string, found bool) {
	if i := strings.IndexAny(s, seps); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func parseItem(t string, known func(string) bool) (Predecessor, *PredecessorError) {
	fail := func(reason string) (Predecessor, *PredecessorError) {
		return Predecessor{}, &PredecessorError{Item: t, Reason: reason}
	}
	if t == "" {
		return fail("two separators in a row, or one at the start or end")
	}
	isKnown := func(id string) bool { return known != nil && known(id) }
	if isKnown(t) {
		return Predecessor{ID: t, Type: TypeFS, LagUnit: DefaultLagUnit}, nil
	}
	rest, lagSign, digits, unit := cutLag(t)
	hasLag := digits != ""
	id, typ := cutType(rest)
	switch {
	case typ != "" && id != "" && len(digits) > maxLagDigits:
		return fail("the lag is too large")
	case typ != "" && id != "":
		// a well-formed item; whether id exists is checked by Validate
	case hasLag && isKnown(rest):
		return fail(fmt.Sprintf("a lag needs a type before it, as in %q", rest+" FS"+t[len(rest):]))
	case typ != "":
		return fail("the ID is missing before the type " + typ)
	case hasBrokenLag(t):
		return fail("a lag after the type must be + or -, a whole number and an optional unit m, h, d, w, mo or %")
	default:
		return Predecessor{ID: t, Type: TypeFS, LagUnit: DefaultLagUnit}, nil
	}
	p := Predecessor{ID: id, Type: typ, LagUnit: DefaultLagUnit}
	if hasLag {
		p.Lag, _ = strconv.Atoi(digits)
		if lagSign == '-' {
			p.Lag = -p.Lag
		}
		if unit != "" {
			p.LagUnit = unit
		}
	}
	return p, nil
}

// cutLag splits a trailing lag ("+2d", "- 1 w", "-3") off t. digits is empty
// when t does not end with one.
func cutLag(t string) (rest string, sign byte, digits, unit string) {
	s := t
	switch {
	case strings.HasSuffix(s, "mo"):
		unit, s = "mo", s[:len(s)-2]
	case s != "" && strings.IndexByte("mhdw%", s[len(s)-1]) >= 0:
		unit, s = s[len(s)-1:], s[:len(s)-1]
	}
	s = trimRightSpace(s)
	end := len(s)
	for len(s) > 0 && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' {
		s = s[:len(s)-1]
	}
	if len(s) == end {
		return t, 0, "", ""
	}
	digits = t[len(s):end]
	s = trimRightSpace(s)
	if s == "" || (s[len(s)-1] != '+' && s[len(s)-1] != '-') {
		return t, 0, "", ""
	}
	return trimRightSpace(s[:len(s)-1]), s[len(s)-1], digits, unit
}

// cutType splits a trailing dependency type off s.
func cutType(s string) (id, typ string) {
	if len(s) >= 2 {
		switch tail := s[len(s)-2:]; tail {
		case TypeFS, TypeSS, TypeFF, TypeSF:
			return trimRightSpace(s[:len(s)-2]), tail
		}
	}
	return s, ""
}

// hasBrokenLag reports whether t has a type followed by a sign, the start of
// a lag that cutLag could not read.
func hasBrokenLag(t string) bool {
	for _, typ := range []string{TypeFS, TypeSS, TypeFF, TypeSF} {
		for i := 0; ; {
			j := strings.Index(t[i:], typ)
			if j < 0 {
				break
			}
			after := strings.TrimLeftFunc(t[i+j+2:], unicode.IsSpace)
			if after != "" && (after[0] == '+' || after[0] == '-') {
				return true
			}
			i += j + 2
		}
	}
	return false
}

func trimRightSpace(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }
