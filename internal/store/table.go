package store

import (
	"context"
	"strconv"
	"strings"
)

// table is the row model of a table keyed by id: its name, the noun its
// errors name, its columns in the row type's order and the scan of a row of
// them. The statements every such table repeats are written here once; a
// table whose columns are all plain names is written with them too
// (insert).
type table[T any] struct {
	name, noun, columns string
	scan                func(Row) (T, error)
}

// selectFrom is the start of a query of the table's rows.
func (t *table[T]) selectFrom() string { return `SELECT ` + t.columns + ` FROM ` + t.name }

// insert stores a row: values, one per column. ECONFLICT naming the noun.
func (t *table[T]) insert(ctx context.Context, db DB, values ...any) error {
	_, err := db.Exec(ctx, `INSERT INTO `+t.name+` (`+t.columns+`) VALUES (`+numbered(1, len(values))+`)`, values...)
	return wrap(err, t.noun)
}

// get returns the row id. ENOTFOUND naming the noun.
func (t *table[T]) get(ctx context.Context, db DB, id string) (*T, error) {
	return queryOne(ctx, db, t.noun, t.scan, t.selectFrom()+` WHERE id = $1`, id)
}

// list returns the rows that meet where (its arguments args), by order
// (which may end in a LIMIT).
func (t *table[T]) list(ctx context.Context, db DB, where, order string, args ...any) ([]T, error) {
	return queryAll(ctx, db, t.scan, t.selectFrom()+` WHERE `+where+` ORDER BY `+order, args...)
}

// update is the update closure of row id (see update): what fn leaves is
// written to the columns of set ("a = $2, b = $3"), whose values row gives
// from $2 on. ENOTFOUND naming the noun; fn's error as it is.
func (t *table[T]) update(ctx context.Context, q *querier, id string, fn func(*T) error, set string, row func(*T) []any) (*T, error) {
	return update(ctx, q, t.noun, t.scan, t.selectFrom()+` WHERE id = $1`, id, fn, func(tx *Store, v *T) error {
		return tx.execOne(ctx, t.noun, `UPDATE `+t.name+` SET `+set+` WHERE id = $1`, append([]any{id}, row(v)...)...)
	})
}

// delete removes row id. ENOTFOUND naming the noun.
func (t *table[T]) delete(ctx context.Context, q *querier, id string) error {
	return q.execOne(ctx, t.noun, `DELETE FROM `+t.name+` WHERE id = $1`, id)
}

// byIDs returns the rows of selectFrom whose idCol is one of ids, those that
// exist, in any order (a dataloader batch).
func byIDs[T any](ctx context.Context, db DB, scan func(Row) (T, error), selectFrom, idCol string, ids []string) ([]T, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	return queryAll(ctx, db, scan, selectFrom+` WHERE `+idCol+` IN (`+placeholders(&args, ids)+`)`, args...)
}

// numbered returns the placeholders $first to $first+n-1, comma separated.
func numbered(first, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = "$" + strconv.Itoa(first+i)
	}
	return strings.Join(p, ", ")
}
