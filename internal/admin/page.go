package admin

import (
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// PageInput asks for one page of a list: at most Limit items (1 to 1000,
// default 50) after Cursor, the nextCursor of the previous page.
type PageInput struct {
	Limit  int
	Cursor string
}

// MaxPageLimit is the largest page a list answers.
const MaxPageLimit = store.MaxPageLimit

// Page is one page of a list. NextCursor is nil on the last page.
type Page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func newPage[T any](items []T, next string) *Page[T] {
	p := &Page[T]{Items: items}
	if p.Items == nil {
		p.Items = []T{}
	}
	if next != "" {
		p.NextCursor = &next
	}
	return p
}

func (p PageInput) query() (store.PageQuery, error) {
	if p.Limit < 0 || p.Limit > store.MaxPageLimit {
		return store.PageQuery{}, platform.Errorf(platform.EINVALID, "limit must be between 1 and %d", store.MaxPageLimit)
	}
	if p.Cursor != "" {
		if _, _, err := store.DecodeCursor(p.Cursor); err != nil {
			return store.PageQuery{}, err
		}
	}
	return store.PageQuery{Limit: p.Limit, Cursor: p.Cursor}, nil
}

// WholePage is a whole list as the API answers it: the page envelope without a next page.
func WholePage[T any](v []T) *Page[T] { return newPage(v, "") }

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

// inKeyOrder answers the views of the rows a dataloader batch loaded, in
// the order of its keys: nil where a row is missing or outside the caller's
// scope. A load error passes through.
func inKeyOrder[R, V any](c *access.Caller, keys []string, key func(*R) string, resource func(*R) authz.Resource,
	view func(*R) *V) func([]R, error) ([]*V, error) {
	return func(rows []R, err error) ([]*V, error) {
		if err != nil {
			return nil, err
		}
		return byKeys(c, keys, rows, key, resource, view), nil
	}
}

func byKeys[R, V any](c *access.Caller, keys []string, rows []R, key func(*R) string, resource func(*R) authz.Resource,
	view func(*R) *V) []*V {
	byKey := map[string]*V{}
	for i := range rows {
		if res := resource(&rows[i]); c.Scope.Allows(res.CustomerID, res.InstanceID) {
			byKey[key(&rows[i])] = view(&rows[i])
		}
	}
	out := make([]*V, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out
}

// orNull is s for an optional field of a view, nil (null) when s is empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timeOrNull is t for an optional field of a view, nil (null) when t is zero.
func timeOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
