package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/platform/platform/internal/store"
)

func mustOpen(t *testing.T) *Conn {
	t.Helper()
	c, err := Open(context.Background(), filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if _, err := c.Exec(context.Background(), `CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return c
}

func mustValue(t *testing.T, db store.DB, k string) int {
	t.Helper()
	var v int
	if err := db.QueryRow(context.Background(), `SELECT v FROM kv WHERE k = $1`, k).Scan(&v); err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return v
}

// A kept statement reads what was written after it was prepared, inside a
// transaction sees the transaction's own writes, and after a rollback no
// longer sees them.
func TestStmtCacheReadsCurrentData(t *testing.T) {
	ctx := context.Background()
	c := mustOpen(t)
	if _, err := c.Exec(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, "a", 1); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, c, "a"); got != 1 {
		t.Fatalf("a = %d, want 1", got)
	}
	if _, err := c.Exec(ctx, `UPDATE kv SET v = $2 WHERE k = $1`, "a", 2); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, c, "a"); got != 2 {
		t.Fatalf("after the update a = %d, want 2", got)
	}
	if c.stmts.kept(rewrite(`SELECT v FROM kv WHERE k = $1`)) == nil {
		t.Fatal("the select is not kept")
	}
	errRollback := errors.New("roll back")
	err := c.InTx(ctx, func(tx store.DB) error {
		if _, err := tx.Exec(ctx, `UPDATE kv SET v = $2 WHERE k = $1`, "a", 3); err != nil {
			return err
		}
		if got := mustValue(t, tx, "a"); got != 3 {
			t.Errorf("in the transaction a = %d, want 3", got)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("InTx = %v", err)
	}
	if got := mustValue(t, c, "a"); got != 2 {
		t.Fatalf("after the rollback a = %d, want 2", got)
	}
}

// Past maxCachedStmts query texts run unprepared, and a failing statement
// reports its error, mapped, whether kept or not.
func TestStmtCacheBoundedAndErrors(t *testing.T) {
	ctx := context.Background()
	c := mustOpen(t)
	for range 2 { // prepared, then kept
		if _, err := c.Exec(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, "k1", 1); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, `DELETE FROM kv WHERE k = $1`, "k1"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxCachedStmts + 10 {
		if _, err := c.Exec(ctx, fmt.Sprintf(`INSERT INTO kv (k, v) VALUES ('k%d', %d)`, i, i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.stmts.m); n != maxCachedStmts {
		t.Fatalf("%d statements kept, want %d", n, maxCachedStmts)
	}
	if c.stmts.kept(rewrite(`INSERT INTO kv (k, v) VALUES ($1, $2)`)) == nil {
		t.Fatal("the insert is not kept")
	}
	if _, err := c.Exec(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, "k1", 1); !errors.Is(err, store.ErrUnique) {
		t.Fatalf("duplicate key: %v, want ErrUnique", err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('k1', 1)`); !errors.Is(err, store.ErrUnique) {
		t.Fatalf("duplicate key, not kept: %v, want ErrUnique", err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO nowhere (k) VALUES ($1)`, "x"); err == nil {
		t.Fatal("an insert into a missing table succeeded")
	}
}

// A statement that only runs in transactions is kept once the first of
// them has ended, committed or not, and the next transaction runs it
// prepared.
func TestStmtCacheKeepsTransactionStatements(t *testing.T) {
	ctx := context.Background()
	c := mustOpen(t)
	insert := `INSERT INTO kv (k, v) VALUES ($1, $2)`
	for i, fail := range []bool{true, false, false} {
		err := c.InTx(ctx, func(tx store.DB) error {
			if i > 0 && tx.(*Conn).stmts.kept(rewrite(insert)) == nil {
				t.Errorf("transaction %d: the insert is not kept", i)
			}
			if _, err := tx.Exec(ctx, insert, fmt.Sprint("t", i), i); err != nil {
				return err
			}
			if fail {
				return errors.New("roll back")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("transaction %d: %v", i, err)
		}
	}
	if got := mustValue(t, c, "t2"); got != 2 {
		t.Fatalf("t2 = %d, want 2", got)
	}
}
