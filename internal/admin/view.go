package admin

// views maps rows to their views, in order.
func views[R, V any](rows []R, view func(*R) *V) []*V {
	out := make([]*V, 0, len(rows))
	for i := range rows {
		out = append(out, view(&rows[i]))
	}
	return out
}

// viewing maps the row a store call answers to its view, an error passing
// through: viewing(newMeterView)(s.store.Meter(ctx, id)).
func viewing[R, V any](view func(*R) *V) func(*R, error) (*V, error) {
	return func(row *R, err error) (*V, error) {
		if err != nil {
			return nil, err
		}
		return view(row), nil
	}
}
