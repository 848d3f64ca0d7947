// Package migrations embeds the platform's numbered, forward-only SQL migrations.
// Each file NNNN_name.sql is written in the SQL both PostgreSQL and SQLite accept;
// the store rewrites the few type names that differ (TIMESTAMPTZ, BYTEA).
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
