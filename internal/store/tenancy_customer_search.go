package store

import (
	"context"
	"strings"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// SearchCustomers lists the customers within f whose name contains search
// (case-insensitive; % and _ match themselves), by (name, id).
func (s *Tenancy) SearchCustomers(ctx context.Context, f authz.Filter, search string, p PageQuery) ([]platform.Customer, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	var args []any
	cond := scopeCondition(&args, f, "id", "") + ` AND ` + containsCondition(&args, search, "name")
	return keysetPage(ctx, s.db, p, customers.selectFrom(), cond, args, "name", "id", scanCustomer,
		func(c *platform.Customer) (string, string) { return c.Name, c.ID })
}

// containsCondition is the condition that one of cols contains search,
// case-insensitively, LIKE's wildcards taken literally; TRUE for an empty
// search. It appends its one argument to args.
func containsCondition(args *[]any, search string, cols ...string) string {
	if search == "" {
		return `TRUE`
	}
	p := arg(args, "%"+likeEscape(strings.ToLower(search))+"%")
	conds := make([]string, len(cols))
	for i, c := range cols {
		conds[i] = `LOWER(` + c + `) LIKE ` + p + ` ESCAPE '\'`
	}
	return `(` + strings.Join(conds, ` OR `) + `)`
}

// likeEscape escapes LIKE's wildcards and its escape character.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
