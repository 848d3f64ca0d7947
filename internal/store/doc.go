// Package store keeps the platform's state in PostgreSQL or SQLite. The SQL is
// written once; the postgres and sqlite packages adapt one driver each to Conn,
// and storetest holds the suite both must pass.
package store
