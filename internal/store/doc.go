// Package store keeps the platform's state in PostgreSQL or SQLite: one file per noun, its SQL written once
// and only reading and writing rows (the services validate and decide); postgres and sqlite adapt one driver
// each to Conn, and storetest holds the suite both must pass.
package store
