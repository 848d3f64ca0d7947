package store

import "github.com/platform/platform/internal/authz"

// scopeCondition renders a caller's scope (authz.Scope.Filter) as the SQL
// condition of a listing, its arguments appended to args: rows whose
// customerCol is one of the filter's customers and, when the instance axis
// applies and instanceCol names the rows' instance ("" when the rows have
// none), whose instance is one of its instances or none (R5.7-and). Every
// listing the caller's scope narrows goes through it: it is the only place
// outside internal/authz that spells a customer-scope condition (D-access-path;
// TestOneScopeRenderer scans the sources for others).
func scopeCondition(args *[]any, f authz.Filter, customerCol, instanceCol string) string {
	switch {
	case f.All:
		return "TRUE"
	case len(f.CustomerIDs) == 0:
		return "FALSE"
	}
	cond := customerCol + ` IN (` + placeholders(args, f.CustomerIDs) + `)`
	if f.InstanceScoped && instanceCol != "" {
		if len(f.InstanceIDs) == 0 {
			cond += ` AND ` + instanceCol + ` IS NULL`
		} else {
			cond += ` AND (` + instanceCol + ` IS NULL OR ` + instanceCol + ` IN (` + placeholders(args, f.InstanceIDs) + `))`
		}
	}
	return cond
}
