package platform

import (
	"fmt"
	"strconv"
)

// Page sizes of every list (D-paging): how many items a page holds when a
// request names no number, and the most it may ask for. The transports
// check what a request names against them, the services check what they
// are given, and the store sizes its pages with them.
const (
	// DefaultPageSize is the page of the lists ordered by name (customers,
	// tenants, instances, users, internal users) and of master records.
	DefaultPageSize = 50
	// DefaultNewestSize is the page of the newest-first lists (invoices,
	// payments, credits, usage, the audit and e-mail logs, webhook
	// deliveries, releases, discrepancies).
	DefaultNewestSize = 100
	// MaxPageSize is the largest page of every list but the logs and the
	// GraphQL edges.
	MaxPageSize = 1000
	// MaxLogPageSize is the largest page of the audit and e-mail logs.
	MaxLogPageSize = 500
	// MaxExportSize is the most events one answer of the audit log's export
	// holds, and its default (D-audit-stream).
	MaxExportSize = 1000
	// MaxChildren is the most children a GraphQL edge (Customer.tenants and
	// the like) answers per parent, and its default; the paged lists go further.
	MaxChildren = 100
	// MaxPageNumber bounds a master-record page number, so that its offset
	// fits the databases' integers.
	MaxPageNumber = 100_000_000
)

// PageLimit is the page size one kind of list takes: Default items when a
// request names none, at most Max.
type PageLimit struct{ Default, Max int }

// The page sizes of the lists.
var (
	NamePages         = PageLimit{DefaultPageSize, MaxPageSize}
	NewestPages       = PageLimit{DefaultNewestSize, MaxPageSize}
	LogPages          = PageLimit{DefaultNewestSize, MaxLogPageSize}
	ExportPages       = PageLimit{MaxExportSize, MaxExportSize}
	ChildPages        = PageLimit{MaxChildren, MaxChildren}
	RecordPages       = PageLimit{DefaultPageSize, MaxPageSize}
	RecordPageNumbers = PageLimit{1, MaxPageNumber}
)

// PageRequest asks for one page of a list: at most Limit items (0: the
// list's default) after Cursor, the nextCursor of the previous page.
type PageRequest struct {
	Limit  int
	Cursor string
}

// Problem is the one message of a page size out of range, naming the
// parameter the request gave it in.
func (l PageLimit) Problem(param string) string {
	return fmt.Sprintf("%s must be a whole number from 1 to %d", param, l.Max)
}

func (l PageLimit) refuse(param string) error { return Errorf(EINVALID, "%s", l.Problem(param)) }

// Check accepts a page size a service is given: 0 (the default) or 1 to
// Max. EINVALID naming param otherwise.
func (l PageLimit) Check(param string, n int) error {
	if n < 0 || n > l.Max {
		return l.refuse(param)
	}
	return nil
}

// Arg reads a page size a request may name (a GraphQL argument): nil is 0,
// the default; a number named must be 1 to Max. EINVALID naming param.
func (l PageLimit) Arg(param string, n *int) (int, error) {
	if n == nil {
		return 0, nil
	}
	if *n < 1 || *n > l.Max {
		return 0, l.refuse(param)
	}
	return *n, nil
}

// Parse reads a page size from a query parameter's value: "" is 0, the
// default; else decimal digits only (no sign) for 1 to Max. EINVALID
// naming param.
func (l PageLimit) Parse(param, raw string) (int, error) {
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || raw[0] < '0' || raw[0] > '9' {
		return 0, l.refuse(param)
	}
	return l.Arg(param, &n)
}

// Size is how many items a page asked with n holds: Default for 0 (or
// less), at most Max.
func (l PageLimit) Size(n int) int {
	switch {
	case n <= 0:
		return l.Default
	case n > l.Max:
		return l.Max
	}
	return n
}
