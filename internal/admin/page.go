package admin

import (
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
