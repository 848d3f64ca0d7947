package sqlite_test

import (
	"testing"

	"github.com/platform/platform/internal/store/storetest"
)

func TestStore(t *testing.T) { storetest.Run(t, storetest.NewSQLite) }
