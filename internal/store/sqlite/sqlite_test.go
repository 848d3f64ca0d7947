package sqlite_test

import (
	"testing"

	"github.com/platform/platform/internal/store/storetest"
)

// TestStore runs the store suite on SQLite; rules checked in the suite
// itself are named here too.
//
// spec: R2.6-grant-key (Credentials/GranteeTypeInGrantKey)
func TestStore(t *testing.T) { storetest.Run(t, storetest.NewSQLite) }
