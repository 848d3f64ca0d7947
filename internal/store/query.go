package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

// The shapes every noun's SQL repeats: a list, one row, a write that must
// touch one row, an update under a row lock, and the conversions of
// optional columns.

// queryAll runs query and scans every row with scan, in order.
func queryAll[T any](ctx context.Context, db DB, scan func(Row) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanAlso is a row whose columns after those a scan function reads are
// scanned to also: a scan function of a table's columns reads a statement
// that selects more.
type scanAlso struct {
	Row
	also []any
}

func (r scanAlso) Scan(dest ...any) error { return r.Row.Scan(append(dest, r.also...)...) }

// queryOne scans the one row of query with scan. ENOTFOUND naming noun
// when there is none; the row is returned either way, as far as it was read.
func queryOne[T any](ctx context.Context, db DB, noun string, scan func(Row) (T, error), query string, args ...any) (*T, error) {
	v, err := scan(db.QueryRow(ctx, query, args...))
	return &v, wrap(err, noun)
}

// execOne runs a write that must touch one row: ENOTFOUND naming noun otherwise.
func (s *querier) execOne(ctx context.Context, noun, q string, args ...any) error {
	n, err := s.db.Exec(ctx, q, args...)
	if err == nil && n == 0 {
		err = ErrNoRows
	}
	return wrap(err, noun)
}

// underLimit answers ELIMIT, with msg naming max by its %d, when the rows of
// table that meet cond (on its one argument, $1) number max or more: the
// budget of a kind of row one owner may hold.
func (s *querier) underLimit(ctx context.Context, table, cond string, arg any, max int, msg string) error {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+cond, arg).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return platform.Errorf(platform.ELIMIT, msg, max)
	}
	return nil
}

// update is the update closure of a row: in one transaction it reads the row
// of id with query (which ends in its WHERE clause) and holds it, runs fn on
// it, and writes what fn leaves with save. ENOTFOUND naming noun; fn's error
// as it is.
func update[T any](ctx context.Context, s *querier, noun string, scan func(Row) (T, error), query, id string,
	fn func(*T) error, save func(tx *Store, v *T) error) (*T, error) {
	var out *T
	err := s.InTx(ctx, func(tx *Store) error {
		v, err := scan(tx.db.QueryRow(ctx, query+tx.forUpdate(), id))
		if err != nil {
			return wrap(err, noun)
		}
		if err := fn(&v); err != nil {
			return err
		}
		out = &v
		return save(tx, &v)
	})
	return out, err
}

func (s *querier) forUpdate() string {
	if s.Dialect() == Postgres {
		return " FOR UPDATE"
	}
	return "" // SQLite transactions take the write lock when they begin
}

// each runs a query and calls fn for every row.
func (s *querier) each(ctx context.Context, query string, args []any, fn func(Row) error) error {
	rows, err := s.db.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// arg appends v to args and returns its placeholder.
func arg(args *[]any, v any) string {
	*args = append(*args, v)
	return "$" + strconv.Itoa(len(*args))
}

// placeholders appends vals to args and returns their placeholders, comma separated.
func placeholders(args *[]any, vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(arg(args, v))
	}
	return b.String()
}

// wrap turns store sentinels into coded platform errors naming the noun.
func wrap(err error, noun string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNoRows):
		return platform.Errorf(platform.ENOTFOUND, "%s not found", noun)
	case errors.Is(err, ErrUnique):
		return platform.Errorf(platform.ECONFLICT, "%s already exists", noun)
	default:
		return err
	}
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

func nullTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time.UTC()
	return &v
}

// jsonList is a list column kept as a JSON array.
func jsonList(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// decodeList reads a jsonList column.
func decodeList(s string) []string {
	var v []string
	_ = json.Unmarshal([]byte(s), &v)
	if v == nil {
		v = []string{}
	}
	return v
}

// joinList is a list column kept space separated (scopes, amr).
func joinList(v []string) string { return strings.Join(v, " ") }

// splitList reads a joinList column.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Fields(s)
}

// orTime reads a timestamp that may be NULL. Timestamps are read without
// COALESCE: SQLite returns the result of an expression without the column's
// type, so the fallback is done here.
func orTime(t sql.NullTime, def time.Time) time.Time {
	if t.Valid {
		return t.Time
	}
	return def
}

func rawJSON(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(s)
}

// encodeMapping stores a string → string map as a JSON object ("{}" for none).
func encodeMapping(m map[string]string) string {
	if len(m) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// decodeMapping reads encodeMapping's JSON; nil for none or a malformed value.
func decodeMapping(s string) map[string]string {
	var m map[string]string
	if json.Unmarshal([]byte(s), &m) != nil || len(m) == 0 {
		return nil
	}
	return m
}
