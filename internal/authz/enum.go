package authz

// The enumerations (Role, Action, Access) are small integers named by a
// table: these are the loops and decoding they share.

// values returns first and every value after it below n, in order.
func values[E ~uint8](first E, n int) []E {
	out := make([]E, 0, n-int(first))
	for v := first; int(v) < n; v++ {
		out = append(out, v)
	}
	return out
}

// lookup returns the value from first up to below n that name calls s.
func lookup[E ~uint8](first E, n int, name func(E) string, s string) (E, bool) {
	for v := first; int(v) < n; v++ {
		if name(v) == s {
			return v, true
		}
	}
	return 0, false
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
