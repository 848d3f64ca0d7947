//go:build tools

// Package tools pins the code generators the project runs with go generate,
// so `go run` resolves them from go.mod at the recorded versions.
package tools

import (
	_ "github.com/99designs/gqlgen"
	_ "github.com/vektra/mockery/v2"
)
