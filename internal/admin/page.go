package admin

import (
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

// WholePage is a whole list as the API answers it: the page envelope without a next page.
func WholePage[T any](v []T) *Page[T] { return newPage(v, "") }
