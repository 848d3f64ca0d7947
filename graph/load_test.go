package graph_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
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
// and copy the figures to docs/benchmarks.md. With GRAPHQL_LOAD=process the
// server runs in a process of its own (this test binary again, running
// TestServeTenantsPage), so the clients' work is not the server's.
func TestLoadTenantsPage(t *testing.T) {
	t.Parallel()
	mode := os.Getenv("GRAPHQL_LOAD")
	if mode == "" {
		t.Skip("set GRAPHQL_LOAD=1 (or =process) to run the load measurement")
	}
	if mode == "process" {
		base, dialect := serveElsewhere(t)
		measureTenantsPage(t, base, dialect, nil)
		return
	}
	e := newEnv(t)
	e.mustTenants(100)
	measureTenantsPage(t, e.srv.URL, string(e.st.Dialect()), e.queries)
}

// TestServeTenantsPage is TestLoadTenantsPage's server in a process of its
// own: with GRAPHQL_LOAD_SERVE=1 it serves the page's data, writes its URL
// and dialect on a line of standard output, and serves until standard input
// closes.
func TestServeTenantsPage(t *testing.T) {
	if os.Getenv("GRAPHQL_LOAD_SERVE") == "" {
		t.Skip("the server half of GRAPHQL_LOAD=process")
	}
	e := newEnv(t)
	e.mustTenants(100)
	fmt.Printf("serving %s %s\n", e.srv.URL, e.st.Dialect())
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// serveElsewhere starts TestServeTenantsPage in a child process and
// answers its URL and dialect; the child ends with the test.
func serveElsewhere(t *testing.T) (base, dialect string) {
	cmd := exec.Command(os.Args[0], "-test.run", "^TestServeTenantsPage$", "-test.count", "1")
	cmd.Env = append(os.Environ(), "GRAPHQL_LOAD_SERVE=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if _, err := fmt.Sscanf(lines.Text(), "serving %s %s", &base, &dialect); err == nil {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return base, dialect
		}
	}
	t.Fatal("the server process ended before it served")
	return "", ""
}

// measureTenantsPage runs the measurement against the server at base;
// queries, when the server is in this process, counts its SQL statements.
func measureTenantsPage(t *testing.T, base, dialect string, queries *atomic.Int64) {
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
			req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			return do(req)
		}
	}
	viaGraphQL, viaExecutor := post("/graphql"), post("/graphql-executor")
	viaREST := func() error {
		for _, p := range []string{"/api/v1/tenants?limit=100", "/api/v1/customers?limit=100", "/api/v1/grants"} {
			req, _ := http.NewRequest(http.MethodGet, base+p, nil)
			if err := do(req); err != nil {
				return err
			}
		}
		return nil
	}
	for _, v := range []struct {
		name string
		f    func() error
	}{{"GraphQL page", viaGraphQL}, {"REST page (3 requests)", viaREST}} {
		var before int64
		if queries != nil {
			before = queries.Load()
		}
		if err := v.f(); err != nil {
			t.Fatal(err)
		}
		if queries != nil { // the statements are counted in process only
			t.Logf("SQL statements per %s: %d", v.name, queries.Load()-before)
		}
	}

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
		t.Logf("%s (%s): page p50 %v p90 %v p99 %v; %d clients: %.0f pages/s (%.2f× REST)", v.name, dialect,
			pct(50), pct(90), pct(99), workers, perSec, float64(pages[i])/float64(pages[len(pages)-1]))
	}
}
