package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/store/storetest"
)

// Replicas started at the same moment on one empty PostgreSQL database all
// come up: migrations, demo data, the console's service client and the first
// signing key are made once, and every replica publishes the key the others
// sign with. Three rounds, three replicas each.
func TestColdStartReplicas(t *testing.T) {
	t.Parallel()
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("replicas share a PostgreSQL database; set " + storetest.EnvPostgres)
	}
	for round := range 3 {
		dbURL := storetest.NewDatabaseURL(t)
		mains := make([]*Main, 3)
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for i := range mains {
			cfg := DefaultConfig()
			cfg.DatabaseURL, cfg.SecretsKey = dbURL, testSecretsKey
			m := NewMain(cfg)
			for _, role := range []string{RoleIDP, RoleConsole, RoleTenant, ListenerMetrics} {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				m.Listeners[role] = ln
			}
			// every replica answers for the same public URLs, as behind a load balancer
			m.Config.IssuerURL, m.Config.ConsoleURL, m.Config.InstanceURL =
				"http://localhost:18080", "http://localhost:18081", "http://localhost:18082"
			mains[i] = m
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = m.Run(context.Background())
			}()
		}
		wg.Wait()
		for _, m := range mains {
			t.Cleanup(func() { m.Close() })
		}
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: replica %d did not start: %v", round, i, err)
			}
		}
		keys, err := mains[0].Store.SigningKeys(context.Background(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 1 {
			t.Fatalf("round %d: %d signing keys after a simultaneous start, want 1", round, len(keys))
		}
		for i, m := range mains {
			_, body := get(t, "http://"+m.Listeners[RoleIDP].Addr().String()+"/oauth/v2/keys")
			var jwks struct {
				Keys []struct {
					Kid string `json:"kid"`
				} `json:"keys"`
			}
			if err := json.Unmarshal([]byte(body), &jwks); err != nil || len(jwks.Keys) != 1 || jwks.Keys[0].Kid != keys[0].ID {
				t.Fatalf("round %d: replica %d publishes %s, want only key %s", round, i, body, keys[0].ID)
			}
		}
	}
}
