package admin

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
)

// SearchCustomers lists the customers in the caller's scope whose name
// contains search (case-insensitive), by name; an empty search lists all.
func (s *customers) SearchCustomers(ctx context.Context, c *access.Caller, search string, p PageInput) (*Page[*Customer], error) {
	search, err := cleanSearch(search)
	if err != nil {
		return nil, err
	}
	if search == "" {
		return s.ListCustomers(ctx, c, p)
	}
	if err := s.checkRole(ctx, c, OpCustomerList); err != nil {
		return nil, err
	}
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	rows, next, err := s.store.SearchCustomers(ctx, c.Scope.Filter(), search, p)
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, newCustomer), next), nil
}

// cleanSearch trims a search text; EINVALID past 200 characters.
func cleanSearch(search string) (string, error) {
	search = strings.TrimSpace(search)
	if utf8.RuneCountInString(search) > 200 {
		return "", platform.Errorf(platform.EINVALID, "search must be at most 200 characters")
	}
	return search, nil
}
