package storetest

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/platform/platform/internal/store/postgres"
)

// A migrated PostgreSQL database for a test comes from a pool shared by every
// test binary on the server: copying the template costs 0.5–1 s (CREATE
// DATABASE … TEMPLATE writes every page of it), emptying a database a test
// used a few milliseconds (its rows deleted, the rows the migrations insert
// put back from the template's seed schema).
//
// Pool databases are named platform_pool_<migrations hash>_<format>_<n>. A test binary
// owns database n while its connection to the server holds the session
// advisory lock (pool key, n); the lock goes with the connection, so a binary
// that ends or dies frees its databases, and the next owner empties whatever
// was left. A binary keeps the databases it claimed, with a connection pool
// to each, for its later tests: NewPostgres lends a test that pool (lentConn)
// rather than opening one, since a new server connection costs more than
// most tests' statements (the backend starts, then reads the catalog of
// every table and prepares every statement it meets again). Databases stay
// on the server between runs (a run of the same migrations reuses them); a
// new migrations hash makes its own.

// poolSlots is how many pool databases a server holds per migrations hash:
// more tests at once than this get throwaway databases, as before the pool.
const poolSlots = 128

// seedSchema is the schema of the template that keeps a copy of every row
// the migrations insert (role permissions, system workers, the migrations
// applied), which emptying a pool database puts back.
const seedSchema = "pool_seed"

// poolKey is the first key of the pool's advisory locks, one per migrations
// hash, so trees with other migrations never wait on each other.
func poolKey() int32 {
	b, _ := hex.DecodeString(migrationsHash()[:8])
	return int32(binary.BigEndian.Uint32(b))
}

// pgPools holds this binary's pool per server URL.
var pgPools sync.Map // server URL → *pgPool

type pgPool struct {
	serverURL, template string

	mu    sync.Mutex
	admin *pgx.Conn // holds the locks of the databases this binary claimed
	// superuser: the server's user may turn the foreign keys' triggers off
	// (session_replication_role), which the emptying does when it can.
	superuser bool
	free      []*poolDatabase
	next      int // the next database number to try to lock

	orderOnce     sync.Once
	order, seeded []string // from deleteOrder
	orderErr      error
}

type poolDatabase struct {
	name, url string
	// conn is the pool of connections to the database, kept between tests;
	// nil until needed. It serves NewPostgres, and empties the database
	// when there is no emptier.
	conn *postgres.Conn
	// emptier is the connection that empties the database, with the
	// foreign keys' triggers off for its whole life (session_replication_role
	// replica, set when it connects: setting it later would drop every plan
	// the connection keeps); nil until needed, and for a user who may not.
	emptier *pgx.Conn
}

// keptIdle is how many idle connections a pool database keeps between
// tests: the test binaries on one server must stay well under its
// max_connections.
const keptIdle = 1

// claimPostgres gives t a migrated pool database, emptied, until t ends, or
// nil when every database of the pool is in use.
func claimPostgres(t testing.TB, serverURL, template string) *poolDatabase {
	t.Helper()
	v, _ := pgPools.LoadOrStore(serverURL, &pgPool{serverURL: serverURL, template: template})
	p := v.(*pgPool)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := p.take(ctx)
	if err != nil {
		t.Fatalf("pool database: %v", err)
	}
	if d == nil {
		return nil
	}
	if err := p.empty(ctx, d); err != nil {
		t.Fatalf("pool database %s: %v", d.name, err)
	}
	t.Cleanup(func() { p.give(d) })
	return d
}

// take returns a database this binary holds and no test uses, or locks the
// next free one of the pool (nil when there is none).
func (p *pgPool) take(ctx context.Context) (*poolDatabase, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		d := p.free[n-1]
		p.free = p.free[:n-1]
		return d, nil
	}
	if p.admin == nil {
		admin, err := pgx.Connect(ctx, p.serverURL)
		if err != nil {
			return nil, err
		}
		if err := admin.QueryRow(ctx, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&p.superuser); err != nil {
			admin.Close(ctx)
			return nil, err
		}
		p.admin = admin
	}
	for ; p.next < poolSlots; p.next++ {
		var got bool
		if err := p.admin.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", poolKey(), p.next).Scan(&got); err != nil {
			return nil, err
		}
		if got {
			name := "platform_pool_" + migrationsHash() + "_" + templateFormat + "_" + strconv.Itoa(p.next)
			d := &poolDatabase{name: name, url: databaseURL(p.serverURL, name)}
			p.next++
			return d, nil
		}
	}
	return nil, nil
}

// give takes d back for the binary's next test, with at most keptIdle of
// its connections.
func (p *pgPool) give(d *poolDatabase) {
	if d.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		for i, c := range d.conn.Pool.AcquireAllIdle(ctx) {
			if i < keptIdle {
				c.Release()
			} else {
				_ = c.Hijack().Close(ctx)
			}
		}
		cancel()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, d)
}

// empty leaves d as the template made it: taking connections, its rows
// deleted and the seed rows put back, or made again from the template when
// it does not exist or cannot be emptied (a run stopped while making it).
func (p *pgPool) empty(ctx context.Context, d *poolDatabase) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var allowConn bool
	err := p.admin.QueryRow(ctx, "SELECT datallowconn FROM pg_database WHERE datname = $1", d.name).Scan(&allowConn)
	if err != nil && err != pgx.ErrNoRows {
		return err
	}
	if exists := err == nil; exists {
		if !allowConn { // a test made it refuse connections, and ended
			if _, err := p.admin.Exec(ctx, "ALTER DATABASE "+d.name+" ALLOW_CONNECTIONS true"); err != nil {
				return err
			}
		}
		// Connections an earlier test left open (a server still shutting
		// down) would hold locks or write into the next test; the kept
		// pool's own stay, those that still answer.
		own := d.liveConnections(ctx)
		pids := make([]int64, len(own), len(own)+1)
		for i, c := range own {
			pids[i] = int64(c.Conn().PgConn().PID())
		}
		if d.emptier != nil {
			if d.emptier.Ping(ctx) == nil {
				pids = append(pids, int64(d.emptier.PgConn().PID()))
			} else {
				d.closeEmptier()
			}
		}
		_, err := p.admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND pid <> ALL($2::int8[])", d.name, pids)
		for _, c := range own {
			c.Release()
		}
		if err != nil {
			return err
		}
		if p.deleteRows(ctx, d) == nil {
			return nil
		}
		d.closeConnections()
		if _, err := p.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+d.name+" WITH (FORCE)"); err != nil {
			return err
		}
	}
	d.closeConnections() // to a database that is gone
	if _, err := p.admin.Exec(ctx, "CREATE DATABASE "+d.name+" TEMPLATE "+p.template); err != nil {
		return err
	}
	_, err = p.admin.Exec(ctx, "ALTER DATABASE "+d.name+" "+testDatabaseSettings)
	return err
}

// deleteRows deletes every row of d and puts the seed rows back, in one
// transaction on a connection kept to d, where the statements stay
// prepared. DELETE, not TRUNCATE: a test leaves a few rows in a few
// tables, and TRUNCATE writes new files for every table it names (100 ms a
// database under load, against a few for the deletes). On the emptier the
// foreign keys' triggers are off: every table is emptied, so they have
// nothing to check or cascade to, yet each deleted row of a referenced
// table would run one statement per table referencing it (most of the
// emptying's work, and it grows with the rows a test wrote).
func (p *pgPool) deleteRows(ctx context.Context, d *poolDatabase) error {
	var conn *pgx.Conn
	if p.superuser {
		if err := d.openEmptier(ctx); err != nil {
			return err
		}
		conn = d.emptier
	} else {
		if err := d.open(ctx); err != nil {
			return err
		}
		pc, err := d.conn.Pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer pc.Release()
		conn = pc.Conn()
	}
	p.orderOnce.Do(func() { p.order, p.seeded, p.orderErr = deleteOrder(ctx, conn) })
	if p.orderErr != nil {
		return p.orderErr
	}
	if len(p.seeded) == 0 {
		return fmt.Errorf("no %s schema (a template made before the pool)", seedSchema)
	}
	b := &pgx.Batch{}
	b.Queue("SET LOCAL lock_timeout = '10s'")
	for _, t := range p.order {
		b.Queue("DELETE FROM public." + quoteIdent(t))
	}
	for i := len(p.seeded) - 1; i >= 0; i-- {
		t := quoteIdent(p.seeded[i])
		b.Queue("INSERT INTO public." + t + " SELECT * FROM " + seedSchema + "." + t)
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
}

// open makes d's connection pool when it has none.
func (d *poolDatabase) open(ctx context.Context) error {
	if d.conn != nil {
		return nil
	}
	conn, err := postgres.Open(ctx, d.url, postgres.Options{})
	d.conn = conn
	return err
}

// openEmptier connects d's emptier when it has none.
func (d *poolDatabase) openEmptier(ctx context.Context) error {
	if d.emptier != nil {
		return nil
	}
	cfg, err := pgx.ParseConfig(d.url)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["session_replication_role"] = "replica"
	d.emptier, err = pgx.ConnectConfig(ctx, cfg)
	return err
}

func (d *poolDatabase) closeEmptier() {
	if d.emptier != nil {
		_ = d.emptier.Close(context.Background())
		d.emptier = nil
	}
}

// closeConnections closes every connection the binary keeps to d.
func (d *poolDatabase) closeConnections() {
	d.closeEmptier()
	if d.conn != nil {
		d.conn.Close()
		d.conn = nil
	}
}

// liveConnections takes the idle connections of d's kept pool that still
// answer, for the caller to release; those that do not (a test ended them,
// or made the database refuse connections) leave the pool.
func (d *poolDatabase) liveConnections(ctx context.Context) []*pgxpool.Conn {
	if d.conn == nil {
		return nil
	}
	var live []*pgxpool.Conn
	for _, c := range d.conn.Pool.AcquireAllIdle(ctx) {
		if err := c.Ping(ctx); err != nil {
			_ = c.Hijack().Close(ctx)
			continue
		}
		live = append(live, c)
	}
	return live
}

// deleteOrder lists the public tables with every table before the tables
// its foreign keys reference (rows are deleted from the referencing table
// first, and seed rows inserted in the reverse order), and the seeded tables
// in that order.
func deleteOrder(ctx context.Context, conn *pgx.Conn) (order, seeded []string, err error) {
	tables, seeds, err := poolTables(ctx, conn)
	if err != nil {
		return nil, nil, err
	}
	rows, err := conn.Query(ctx, `SELECT c.relname, p.relname
		FROM pg_constraint f
		JOIN pg_class c ON c.oid = f.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
		JOIN pg_class p ON p.oid = f.confrelid
		WHERE f.contype = 'f' AND cn.nspname = 'public' AND f.conrelid <> f.confrelid`)
	if err != nil {
		return nil, nil, err
	}
	references := map[string][]string{} // referenced table → tables referencing it
	for rows.Next() {
		var child, parent string
		if err := rows.Scan(&child, &parent); err != nil {
			return nil, nil, err
		}
		references[parent] = append(references[parent], child)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	state := map[string]int{} // 1 visiting, 2 placed
	var visit func(string) error
	visit = func(t string) error {
		switch state[t] {
		case 1:
			return fmt.Errorf("foreign keys form a cycle through %s", t)
		case 2:
			return nil
		}
		state[t] = 1
		for _, child := range references[t] {
			if err := visit(child); err != nil {
				return err
			}
		}
		state[t] = 2
		order = append(order, t)
		return nil
	}
	for _, t := range tables {
		if err := visit(t); err != nil {
			return nil, nil, err
		}
	}
	isSeed := make(map[string]bool, len(seeds))
	for _, t := range seeds {
		isSeed[t] = true
	}
	for _, t := range order {
		if isSeed[t] {
			seeded = append(seeded, t)
		}
	}
	return order, seeded, nil
}

// poolTables lists the tables of the public schema and of the seed schema.
func poolTables(ctx context.Context, conn *pgx.Conn) (tables, seeded []string, err error) {
	rows, err := conn.Query(ctx, "SELECT schemaname, tablename FROM pg_tables WHERE schemaname IN ('public', $1) ORDER BY tablename", seedSchema)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var schema, table string
		if err := rows.Scan(&schema, &table); err != nil {
			return nil, nil, err
		}
		if schema == "public" {
			tables = append(tables, table)
		} else {
			seeded = append(seeded, table)
		}
	}
	return tables, seeded, rows.Err()
}

// tablesWithRows answers which of tables hold at least one row, in one query.
func tablesWithRows(ctx context.Context, conn *pgx.Conn, tables []string) ([]string, error) {
	if len(tables) == 0 {
		return nil, nil
	}
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = fmt.Sprintf("SELECT %s WHERE EXISTS (SELECT 1 FROM public.%s)", quoteLiteral(t), quoteIdent(t))
	}
	rows, err := conn.Query(ctx, strings.Join(parts, " UNION ALL "))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// seedTemplate copies, in the migrated template being made, every table the
// migrations left rows in into the seed schema.
func seedTemplate(ctx context.Context, conn *pgx.Conn) error {
	tables, _, err := poolTables(ctx, conn)
	if err != nil {
		return err
	}
	used, err := tablesWithRows(ctx, conn, tables)
	if err != nil {
		return err
	}
	if len(used) == 0 {
		return fmt.Errorf("the migrations inserted no rows to seed from")
	}
	sql := "CREATE SCHEMA " + seedSchema + ";\n"
	for _, t := range used {
		sql += fmt.Sprintf("CREATE TABLE %s.%s AS SELECT * FROM public.%s;\n", seedSchema, quoteIdent(t), quoteIdent(t))
	}
	_, err = conn.Exec(ctx, sql)
	return err
}

func quoteIdent(s string) string   { return pgx.Identifier{s}.Sanitize() }
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
