package store

import (
	"context"
	"strconv"
	"strings"
)

// copier is the bulk-load capability of the PostgreSQL adapter.
type copier interface {
	CopyFrom(ctx context.Context, table string, columns []string, rows [][]any) (int64, error)
}

// copyThreshold is the row count from which PostgreSQL loads with COPY.
const copyThreshold = 500

// bulkInsert inserts rows into table, with COPY on PostgreSQL for large
// loads and multi-row INSERTs otherwise; suffix (ON CONFLICT …) is appended
// to each INSERT. COPY is used only without suffix. Call it in a transaction.
func (s *querier) bulkInsert(ctx context.Context, table string, columns []string, rows [][]any, suffix string) error {
	if c, ok := s.db.(copier); ok && suffix == "" && len(rows) >= copyThreshold {
		_, err := c.CopyFrom(ctx, table, columns, rows)
		return err
	}
	batch := max(1, 4000/len(columns)) // well under both databases' parameter limits
	head := `INSERT INTO ` + table + ` (` + strings.Join(columns, ", ") + `) VALUES `
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, len(chunk)*len(columns))
		for i, row := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j, v := range row {
				if j > 0 {
					b.WriteString(", ")
				}
				args = append(args, v)
				b.WriteString("$" + strconv.Itoa(len(args)))
			}
			b.WriteByte(')')
		}
		b.WriteString(suffix)
		if _, err := s.db.Exec(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}
