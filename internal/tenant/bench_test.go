package tenant

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// BenchmarkSessionCheck is the tenant backend's per-request session check:
// an authenticated GET /auth/session with the session cookie (the session
// and its grant, one statement), through the router, against the real store.
//
//	go test ./internal/tenant -run '^$' -bench SessionCheck -cpu 1,2
func BenchmarkSessionCheck(b *testing.B) {
	st := storetest.New(b)
	ten, err := New(Config{Issuer: "https://id.example", ConsoleURL: "https://console.example",
		InstanceURL: "https://tenant.example", ClientID: "instance", SecretsKey: make([]byte, 32)}, st)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	id := randomID()
	if err := st.CreateTenantSession(context.Background(), &store.TenantSession{IDHash: hashID(id), UserID: "u1",
		ClientID: "instance", Email: "u@example.com", Name: "U", OrgID: "o", IDToken: "x", GrantID: storetest.MustGrant(b, st, "u1"),
		TokenExpiresAt: now.Add(time.Hour), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	r := chi.NewRouter()
	ten.Routes(r)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, "/auth/session", nil)
			req.AddCookie(&http.Cookie{Name: SessionCookie, Value: id})
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("status %d", w.Code)
			}
		}
	})
}
