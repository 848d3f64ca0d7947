package console

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// TestLoadGateway is the load run of docs/benchmarks.md, not a pass/fail
// test: it seeds 100,000 users in 1,000 customer organizations and 10,000
// instances, then drives resolve-org and resolve-client over real HTTP with
// concurrent clients and reports requests per second and latency
// percentiles. It runs only when LOAD_RUN is set:
//
//	LOAD_RUN=1 TEST_DATABASE_URL='postgres://…' go test ./internal/console -run TestLoadGateway -v -timeout 20m
func TestLoadGateway(t *testing.T) {
	t.Parallel()
	if os.Getenv("LOAD_RUN") == "" {
		t.Skip("set LOAD_RUN=1 to run the load run")
	}
	ctx := context.Background()
	st := storetest.New(t)
	start := time.Now()
	seedLoad(t, st, 1000, 100, 10000)
	t.Logf("seeded 100,000 users and 10,000 instances on %s in %v", st.Dialect(), time.Since(start).Round(time.Millisecond))
	c, err := New(Config{Issuer: testIssuer, ConsoleURL: "https://console.example", ClientID: "console-portal", AdminOrgID: "org-admin"}, st)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	_ = ctx

	run := func(name string, workers int, req func(r *rand.Rand) (*http.Request, error)) {
		const dur = 10 * time.Second
		var mu sync.Mutex
		var lat []time.Duration
		var errs int
		deadline := time.Now().Add(dur)
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(seed uint64) {
				defer wg.Done()
				r := rand.New(rand.NewPCG(seed, seed))
				var local []time.Duration
				bad := 0
				for time.Now().Before(deadline) {
					hr, _ := req(r)
					t0 := time.Now()
					resp, err := client.Do(hr)
					if err != nil || resp.StatusCode != 200 {
						bad++
					}
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
					local = append(local, time.Since(t0))
				}
				mu.Lock()
				lat, errs = append(lat, local...), errs+bad
				mu.Unlock()
			}(uint64(w + 1))
		}
		wg.Wait()
		slices.Sort(lat)
		pct := func(p float64) time.Duration { return lat[int(float64(len(lat)-1)*p)] }
		t.Logf("%s: %d requests in %v with %d clients = %.0f req/s; p50 %v p95 %v p99 %v max %v; errors %d",
			name, len(lat), dur, workers, float64(len(lat))/dur.Seconds(), pct(0.50), pct(0.95), pct(0.99), lat[len(lat)-1], errs)
	}
	orgReq := func(r *rand.Rand) (*http.Request, error) {
		var email string
		if r.IntN(2) == 0 {
			email = fmt.Sprintf("user%d@org%d.example", r.IntN(100), r.IntN(1000))
		} else {
			email = fmt.Sprintf("nobody%d@org%d.example", r.IntN(100000), r.IntN(1000))
		}
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/login/resolve-org", strings.NewReader(`{"email":"`+email+`"}`))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	}
	clientReq := func(r *rand.Rand) (*http.Request, error) {
		i := r.IntN(10000)
		redirect := fmt.Sprintf("https://i%d.tenant.example/auth/callback", i)
		if r.IntN(4) == 0 {
			redirect = "https://evil.example/auth/callback"
		}
		return http.NewRequest(http.MethodGet, srv.URL+"/api/v1/login/resolve-client?client_id=client-"+strconv.Itoa(i)+
			"&redirect_uri="+redirect, nil)
	}
	for _, workers := range []int{8, 16, 32} {
		run("resolve-org (half known, half unknown)", workers, orgReq)
		run("resolve-client (valid and invalid)", workers, clientReq)
	}
}

// seedLoad inserts orgs customer organizations with users each, and
// instances instances, in batches of multi-row INSERTs.
func seedLoad(t *testing.T, st *store.Store, orgs, users, instances int) {
	ctx := context.Background()
	now := time.Now().UTC()
	batch := func(table, cols string, n int, row func(i int) []any) {
		width := len(strings.Split(cols, ","))
		for lo := 0; lo < n; lo += 500 {
			hi := min(lo+500, n)
			var sb strings.Builder
			var args []any
			for i := lo; i < hi; i++ {
				if i > lo {
					sb.WriteString(",")
				}
				sb.WriteString("(")
				for j := 0; j < width; j++ {
					if j > 0 {
						sb.WriteString(",")
					}
					sb.WriteString("$" + strconv.Itoa(len(args)+j+1))
				}
				sb.WriteString(")")
				args = append(args, row(i)...)
			}
			if _, err := st.Conn().Exec(ctx, "INSERT INTO "+table+" ("+cols+") VALUES "+sb.String(), args...); err != nil {
				t.Fatalf("seed %s: %v", table, err)
			}
		}
	}
	batch("organizations", "id, name, created_at", orgs, func(i int) []any { return []any{"org" + strconv.Itoa(i), "Org " + strconv.Itoa(i), now} })
	batch("customers", "id, name, org_id, created_at", orgs, func(i int) []any {
		return []any{"cust" + strconv.Itoa(i), "Customer " + strconv.Itoa(i), "org" + strconv.Itoa(i), now}
	})
	batch("users", "id, org_id, email, name, created_at, updated_at", orgs*users, func(i int) []any {
		org := i / users
		return []any{"u" + strconv.Itoa(i), "org" + strconv.Itoa(org), fmt.Sprintf("user%d@org%d.example", i%users, org), "User", now, now}
	})
	batch("instances", "id, customer_id, name, url, created_at", instances, func(i int) []any {
		return []any{"inst" + strconv.Itoa(i), "cust" + strconv.Itoa(i%orgs), "Instance", fmt.Sprintf("https://i%d.tenant.example", i), now}
	})
	batch("instance_connections", "instance_id, oidc_client_id, oidc_redirect_uri, idp_app_id, updated_at", instances, func(i int) []any {
		return []any{"inst" + strconv.Itoa(i), "client-" + strconv.Itoa(i), fmt.Sprintf("https://i%d.tenant.example/auth/callback", i), "app", now}
	})
	if st.Dialect() == store.Postgres {
		if _, err := st.Conn().Exec(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
	}
}
