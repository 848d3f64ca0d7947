package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// BenchmarkTenantsPage runs the page of 100 tenants with their customers
// and the customers' grants through the handler (no network): one GraphQL
// request (as served, and through gqlgen's executor alone), and the three
// REST requests that carry the same data. Compare
// runs with benchstat; it asserts nothing about time:
//
//	go test ./graph -run '^$' -bench TenantsPage -benchmem -count 6
//
// cpu-ms/op is the process's CPU time (user + system) per page: on a
// shared machine wall time measures the neighbours as much as the code.
func BenchmarkTenantsPage(b *testing.B) {
	e := newEnv(b)
	e.mustTenants(100)
	h := e.srv.Config.Handler
	body, _ := json.Marshal(map[string]any{"query": tenantsWithCustomerAndGrants, "variables": map[string]any{"n": 100}})
	serve := func(b *testing.B, req *http.Request) {
		req.Header.Set(testUserHeader, platAdm)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
			b.Fatalf("%s %s: %d %s", req.Method, req.URL, rec.Code, rec.Body.Bytes())
		}
	}
	// GraphQL is the page as served (D-graphql-page); GraphQLExecutor the
	// same request through gqlgen's executor alone (Config.NoFastPage).
	for name, path := range map[string]string{"GraphQL": "/graphql", "GraphQLExecutor": "/graphql-executor"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				serve(b, req)
			}
		})
	}
	b.Run("REST", func(b *testing.B) {
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			for _, p := range []string{"/api/v1/tenants?limit=100", "/api/v1/customers?limit=100", "/api/v1/grants"} {
				serve(b, httptest.NewRequest(http.MethodGet, p, nil))
			}
		}
	})
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerOp starts measuring the process's CPU; the function it returns
// reports it per operation.
func cpuPerOp(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
