package authz

import "fmt"

// The enumerations (Role, Action, Access) are small integers named by a
// table: enum holds what their parsing, listing and encoding share.

// enum describes an enumeration: its values run from first up to below n,
// name names each, kind is its type's name (an invalid value's String) and
// unknown the error a name or value that is none wraps.
type enum[E ~uint8] struct {
	first   E
	n       int
	name    func(E) string
	kind    string
	unknown error
}

// valid reports whether v is one of the values.
func (t enum[E]) valid(v E) bool { return v >= t.first && int(v) < t.n }

// all returns every value, in order.
func (t enum[E]) all() []E {
	out := make([]E, 0, t.n-int(t.first))
	for v := t.first; int(v) < t.n; v++ {
		out = append(out, v)
	}
	return out
}

// parse returns the value named s, or an error wrapping unknown.
func (t enum[E]) parse(s string) (E, error) {
	for v := t.first; int(v) < t.n; v++ {
		if t.name(v) == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("authz: %w %q", t.unknown, s)
}

// str is v's name, or kind(v) for an invalid value.
func (t enum[E]) str(v E) string {
	if !t.valid(v) {
		return fmt.Sprintf("%s(%d)", t.kind, uint8(v))
	}
	return t.name(v)
}

// marshal encodes v as its name; an invalid value is an error wrapping
// unknown.
func (t enum[E]) marshal(v E) ([]byte, error) {
	if !t.valid(v) {
		return nil, fmt.Errorf("authz: %w %d", t.unknown, uint8(v))
	}
	return []byte(t.name(v)), nil
}

// decode sets *v to the value parse reads from the text b.
func decode[E any](v *E, b []byte, parse func(string) (E, error)) error {
	x, err := parse(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}
