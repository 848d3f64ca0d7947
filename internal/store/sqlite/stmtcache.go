package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// maxCachedStmts bounds the statements a Conn keeps prepared: the store's
// queries are fixed texts, but a few are built per call (IN lists of
// varying length); past the bound a query is prepared per call as before.
const maxCachedStmts = 512

// stmtCache keeps each query text prepared once per connection
// (database/sql prepares a Stmt on each connection it runs on), so SQLite
// does not compile the same statement on every call.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, m: map[string]*sql.Stmt{}} }

// get is query's prepared statement, or nil when query is not kept (more
// than one statement, the cache full, or preparing failed: the caller then
// runs the query unprepared and reports its error).
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	c.mu.Lock()
	st, ok := c.m[query]
	full := len(c.m) >= maxCachedStmts
	c.mu.Unlock()
	if ok || full || strings.Contains(strings.TrimRight(query, "; \t\r\n"), ";") {
		return st
	}
	// prepared outside the lock: it may wait for a connection
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.m[query]; ok || len(c.m) >= maxCachedStmts {
		st.Close()
		return kept
	}
	c.m[query] = st
	return st
}

// kept is query's prepared statement if it is kept, else nil.
func (c *stmtCache) kept(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// close closes every kept statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}
