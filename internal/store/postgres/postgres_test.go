package postgres_test

import (
	"os"
	"testing"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// TestStore runs the store suite on PostgreSQL; rules checked in the suite
// itself are named here too.
//
// spec: R2.6-grant-key (Credentials/GranteeTypeInGrantKey)
func TestStore(t *testing.T) {
	url := os.Getenv(storetest.EnvPostgres)
	if url == "" {
		t.Skip(storetest.EnvPostgres + " is not set; CI sets it (see .ci/run)")
	}
	storetest.Run(t, func(t testing.TB) *store.Store { return storetest.NewPostgres(t, url) })
}
