package store

import (
	"context"
	"encoding/base64"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Detail is how much of each row a read fills in.
type Detail uint8

const (
	// Full reads every column.
	Full Detail = iota
	// Brief reads a row's identity and names only, leaving its settings
	// and times zero: for a page that shows no more (the GraphQL tenants
	// page, D-graphql-page). On SQLite a time column costs the driver two
	// parses a value, most of such a page's reading.
	Brief
)

// PageQuery asks for one page of a listing ordered by (name, id): at most
// Limit rows (platform.NamePages) after Cursor (from the previous page).
type PageQuery = platform.PageRequest

// EncodeCursor returns the cursor after a row ordered by (key, id).
func EncodeCursor(key, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(key + "\x00" + id))
}

// DecodeCursor reads a cursor of EncodeCursor. EINVALID when malformed.
func DecodeCursor(c string) (key, id string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	k, i, ok := strings.Cut(string(b), "\x00")
	if err != nil || !ok || i == "" {
		return "", "", platform.Errorf(platform.EINVALID, "cursor is not valid")
	}
	return k, i, nil
}

// after appends the condition "after cursor" of a listing ordered by
// (keyCol, idCol), ascending (op ">") or descending (op "<"); key reads the
// cursor's key into its argument. EINVALID for a malformed cursor.
func after(args *[]any, cursor, keyCol, idCol, op string, key func(string) (any, error)) (string, error) {
	if cursor == "" {
		return "TRUE", nil
	}
	k, id, err := DecodeCursor(cursor)
	if err != nil {
		return "", err
	}
	v, err := key(k)
	if err != nil {
		return "", platform.Errorf(platform.EINVALID, "cursor is not valid")
	}
	a, b := arg(args, v), arg(args, id)
	return `(` + keyCol + ` ` + op + ` ` + a + ` OR (` + keyCol + ` = ` + a + ` AND ` + idCol + ` ` + op + ` ` + b + `))`, nil
}

// keyset appends the condition "after cursor" on (keyCol, idCol).
func keyset(args *[]any, cursor, keyCol, idCol string) (string, error) {
	return after(args, cursor, keyCol, idCol, ">", func(k string) (any, error) { return k, nil })
}

// newestAfter appends the condition "after cursor" for a listing ordered
// newest first by (timeCol, idCol); the cursor is newestCursor's.
func newestAfter(args *[]any, cursor, timeCol, idCol string) (string, error) {
	return after(args, cursor, timeCol, idCol, "<", func(k string) (any, error) {
		t, err := time.Parse(time.RFC3339Nano, k)
		return t.UTC(), err
	})
}

func newestCursor(t time.Time, id string) string {
	return EncodeCursor(t.UTC().Format(time.RFC3339Nano), id)
}

// keysetPage runs one page of a listing ordered by (keyCol, idCol): the rows
// of selectFrom that meet cond (its arguments in args) after p's cursor, at
// most platform.NamePages.Size(p.Limit) of them, and the cursor of the next
// page ("" on the last).
// key names a row's (key, id) for the cursor. EINVALID for a bad cursor.
func keysetPage[T any](ctx context.Context, db DB, p PageQuery, selectFrom, cond string, args []any,
	keyCol, idCol string, scan func(Row) (T, error), key func(*T) (string, string)) ([]T, string, error) {
	ks, err := keyset(&args, p.Cursor, keyCol, idCol)
	if err != nil {
		return nil, "", err
	}
	return onePage(ctx, db, selectFrom+` WHERE `+cond+` AND `+ks+` ORDER BY `+keyCol+`, `+idCol, args,
		platform.NamePages.Size(p.Limit), scan, func(v *T) string { return EncodeCursor(key(v)) })
}

// newestPage runs one page of a listing ordered newest first by timeCol,
// then id: the rows of selectFrom that meet cond (its arguments in args)
// after cursor, at most platform.NewestPages.Size(limit) of them, and the cursor of the next
// page ("" on the last). at names a row's time and id for the cursor.
// EINVALID for a bad cursor.
func newestPage[T any](ctx context.Context, db DB, cursor string, limit int, selectFrom, cond string, args []any,
	timeCol string, scan func(Row) (T, error), at func(*T) (time.Time, string)) ([]T, string, error) {
	after, err := newestAfter(&args, cursor, timeCol, "id")
	if err != nil {
		return nil, "", err
	}
	return onePage(ctx, db, selectFrom+` WHERE `+cond+` AND `+after+` ORDER BY `+timeCol+` DESC, id DESC`, args,
		platform.NewestPages.Size(limit), scan, func(v *T) string { return newestCursor(at(v)) })
}

// onePage runs query (ordered, without its LIMIT) for at most n rows, and
// returns them with the cursor after the last when more follow.
func onePage[T any](ctx context.Context, db DB, query string, args []any, n int, scan func(Row) (T, error),
	cursor func(*T) string) ([]T, string, error) {
	rows, err := queryAll(ctx, db, scan, query+` LIMIT `+arg(&args, n+1), args...) // one more tells whether a next page exists
	if err != nil {
		return nil, "", err
	}
	out, next := cut(rows, n, cursor)
	return out, next, nil
}

// cut trims rows read with a limit one higher than limit, and returns the
// cursor after the last row kept when more rows follow.
func cut[T any](rows []T, limit int, cursor func(*T) string) ([]T, string) {
	if len(rows) <= limit {
		return rows, ""
	}
	rows = rows[:limit]
	return rows, cursor(&rows[limit-1])
}

// checkNewestCursor refuses a cursor that newestPage would refuse, for
// listings that answer an empty page without asking the database.
func checkNewestCursor(cursor string) error {
	_, err := newestAfter(new([]any), cursor, "", "")
	return err
}
