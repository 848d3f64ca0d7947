package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadTenantsPage measures the page of 100 tenants with their
// customers and the customers' grants, through GraphQL (one request) and
// through the REST shims (the same data: tenants, customers and grants, three
// requests joined by the client), and through gqlgen's executor alone
// (Config.NoFastPage, the page before D-graphql-page), in one run: latency percentiles of
// sequential requests, then requests per second from concurrent clients;
// the variants take turns throughout.
// It asserts nothing about time; run it with
//
//	GRAPHQL_LOAD=1 TEST_DATABASE_URL=postgres://… go test ./graph -run TestLoadTenantsPage -v
//
// and copy the figures to docs/benchmarks.md.
func TestLoadTenantsPage(t *testing.T) {
	t.Parallel()
	if os.Getenv("GRAPHQL_LOAD") == "" {
		t.Skip("set GRAPHQL_LOAD=1 to run the load measurement")
	}
	e := newEnv(t)
	e.mustTenants(100)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	do := func(req *http.Request) error {
		req.Header.Set(testUserHeader, platAdm)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	body, _ := json.Marshal(map[string]any{"query": tenantsWithCustomerAndGrants, "variables": map[string]any{"n": 100}})
	post := func(path string) func() error {
		return func() error {
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			return do(req)
		}
	}
	viaGraphQL, viaExecutor := post("/graphql"), post("/graphql-executor")
	viaREST := func() error {
		for _, p := range []string{"/api/v1/tenants?limit=100", "/api/v1/customers?limit=100", "/api/v1/grants"} {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+p, nil)
			if err := do(req); err != nil {
				return err
			}
		}
		return nil
	}
	before := e.queries.Load()
	if err := viaGraphQL(); err != nil {
		t.Fatal(err)
	}
	t.Logf("SQL statements per GraphQL page: %d", e.queries.Load()-before)
	before = e.queries.Load()
	if err := viaREST(); err != nil {
		t.Fatal(err)
	}
	t.Logf("SQL statements per REST page (3 requests): %d", e.queries.Load()-before)

	variants := []struct {
		name string
		f    func() error
	}{{"GraphQL", viaGraphQL}, {"GraphQL (executor)", viaExecutor}, {"REST", viaREST}}
	// The variants take turns, request by request and window by window, so
	// that a neighbour's load falls on each of them alike.
	for range 50 { // warm up
		for _, v := range variants {
			if err := v.f(); err != nil {
				t.Fatal(err)
			}
		}
	}
	lat := make([][]time.Duration, len(variants))
	for range 500 {
		for i, v := range variants {
			start := time.Now()
			if err := v.f(); err != nil {
				t.Fatal(err)
			}
			lat[i] = append(lat[i], time.Since(start))
		}
	}
	const workers, window, rounds = 16, time.Second, 5
	pages := make([]int64, len(variants))
	for range rounds {
		for i, v := range variants {
			var n atomic.Int64
			var wg sync.WaitGroup
			stop := time.Now().Add(window)
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for time.Now().Before(stop) {
						if err := v.f(); err != nil {
							t.Error(err)
							return
						}
						n.Add(1)
					}
				}()
			}
			wg.Wait()
			pages[i] += n.Load()
		}
	}
	for i, v := range variants {
		slices.Sort(lat[i])
		pct := func(p int) time.Duration { return lat[i][len(lat[i])*p/100].Round(10 * time.Microsecond) }
		perSec := float64(pages[i]) / (rounds * window).Seconds()
		t.Logf("%s (%s): page p50 %v p90 %v p99 %v; %d clients: %.0f pages/s (%.2f× REST)", v.name, e.st.Dialect(),
			pct(50), pct(90), pct(99), workers, perSec, float64(pages[i])/float64(pages[len(pages)-1]))
	}
}
