package console

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkResolveOrg compares the server-side cost of resolve-org for a known
// and an unknown address, side by side in one run (docs/benchmarks.md).
//
//	go test ./internal/console -run '^$' -bench ResolveOrg -count 6
func BenchmarkResolveOrg(b *testing.B) {
	h := mustConsoleTB(b).c.Handler()
	for _, email := range []string{"alice@acme.example", "nobody@acme.example", "dana@partner.example", "nobody@partner.example"} {
		name := "known"
		if strings.HasPrefix(email, "nobody") {
			name = "unknown"
		}
		b.Run(name+"/"+strings.Split(email, "@")[1], func(b *testing.B) {
			body := `{"email":"` + email + `"}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/v1/login/resolve-org", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
