package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// PageInput asks for one page of a list: at most Limit items (0: the
// list's default, platform.PageLimit) after Cursor, the nextCursor of the
// previous page.
type PageInput = platform.PageRequest

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

// checkPage checks a page of a list ordered by name (or e-mail) and id:
// its size against limits, its cursor's form. EINVALID.
func checkPage(limits platform.PageLimit, p PageInput) error {
	if err := limits.Check("limit", p.Limit); err != nil {
		return err
	}
	if p.Cursor != "" {
		if _, _, err := store.DecodeCursor(p.Cursor); err != nil {
			return err
		}
	}
	return nil
}

// namePage answers one page of a list ordered by name (or e-mail) and id,
// to c, whose role must hold op (EFORBIDDEN) and whose scope filters the
// rows: load reads the page with the filter applied in SQL.
func namePage[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, p PageInput,
	load func(authz.Filter) ([]R, string, error), view func(*R) *V) (*Page[*V], error) {
	if err := s.checkRole(ctx, c, op); err != nil {
		return nil, err
	}
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	rows, next, err := load(c.Scope.Filter())
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, view), next), nil
}

// searchPage is namePage of the rows whose name (or e-mail) contains search
// (case-insensitive; "" for all): load reads the page with the scope filter
// and the trimmed search applied in SQL. EINVALID for a search of more than
// 200 characters.
func searchPage[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, search string, p PageInput,
	load func(f authz.Filter, search string) ([]R, string, error), view func(*R) *V) (*Page[*V], error) {
	search, err := cleanSearch(search)
	if err != nil {
		return nil, err
	}
	return namePage(ctx, s, c, op, p, func(f authz.Filter) ([]R, string, error) { return load(f, search) }, view)
}

// newestPage answers one page of a list, newest first, whose size limits
// bounds (EINVALID): load reads it.
func newestPage[R, V any](limits platform.PageLimit, limit int, load func() ([]R, string, error), view func(*R) V) (*Page[V], error) {
	if err := limits.Check("limit", limit); err != nil {
		return nil, err
	}
	rows, next, err := load()
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, view), next), nil
}

// wholeList answers the whole list load reads, unless the decision on it
// refused (refused is not nil).
func wholeList[R, V any](ctx context.Context, refused error, load func(context.Context) ([]R, error), view func(*R) *V) (*Page[*V], error) {
	if refused != nil {
		return nil, refused
	}
	rows, err := load(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, view)), nil
}

// customerList answers the whole list of a customer's records (load) to c,
// decided on op on the customer.
func customerList[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, customerID string,
	load func(context.Context, string) ([]R, error), view func(*R) *V) (*Page[*V], error) {
	_, err := s.customerFor(ctx, c, customerID, op)
	return wholeList(ctx, err, func(ctx context.Context) ([]R, error) { return load(ctx, customerID) }, view)
}

// internalList answers the whole list of the administrator organization's
// records of a kind customers hold too (load with no customer, ""), decided
// on op as the platform's own records are.
func internalList[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation,
	load func(context.Context, string) ([]R, error), view func(*R) *V) (*Page[*V], error) {
	return wholeList(ctx, s.infra(ctx, c, op), func(ctx context.Context) ([]R, error) { return load(ctx, "") }, view)
}

// WholePage is a whole list as the API answers it: the page envelope without a next page.
func WholePage[T any](v []T) *Page[T] { return newPage(v, "") }
