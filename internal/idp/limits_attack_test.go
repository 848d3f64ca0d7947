package idp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// countRows counts the rows of table.
func (ti *testIDP) countRows(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := ti.st.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// noRedirects is a client that answers every response as it is.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// Authorization requests and pushed authorization requests of a public
// client, sent from one address past AUTHORIZE_RATE_LIMIT (each stored a
// row: a login transaction for 30 minutes, a request_uri for a minute):
// each endpoint answers 429 with Retry-After, the authorization endpoint
// with the provider's page (no redirect to the client), PAR with an OAuth
// error body; they count apart, and nothing is stored past the limit.
// attack: authorize-par-flood
func TestAttackAuthorizeAndPushedFlood(t *testing.T) {
	t.Parallel()
	const limit = 5
	ti := mustIDP(t, func(c *Config) { c.AuthorizeRateLimit = limit })
	r := ti.rp()
	for i := 1; i <= limit+3; i++ {
		resp, err := noRedirects.Get(r.authURL(newFlow()))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if i <= limit {
			if resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), PathLogin) {
				t.Fatalf("authorization request %d = %d %q", i, resp.StatusCode, resp.Header.Get("Location"))
			}
			continue
		}
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || resp.Header.Get("Location") != "" ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), "Too many sign-in requests") {
			t.Fatalf("authorization request %d past the limit = %d Retry-After=%q Location=%q\n%.300s", i, resp.StatusCode,
				resp.Header.Get("Retry-After"), resp.Header.Get("Location"), body)
		}
	}
	if n := ti.countRows(t, "auth_requests"); n != limit {
		t.Fatalf("%d login transactions stored, want %d", n, limit)
	}

	for i := 1; i <= limit+3; i++ {
		req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathPAR, strings.NewReader(pushParams(appClientID, newFlow()).Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if i <= limit {
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("push %d (its own counter, the authorization endpoint's is spent) = %d %v", i, resp.StatusCode, out)
			}
			continue
		}
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
			out["error"] != "temporarily_unavailable" || resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("push %d past the limit = %d Retry-After=%q %v", i, resp.StatusCode, resp.Header.Get("Retry-After"), out)
		}
	}
	if n := ti.countRows(t, "pushed_requests"); n != limit {
		t.Fatalf("%d pushed requests stored, want %d", n, limit)
	}
}

// Requests to the registration endpoint from one address past
// AUTHORIZE_RATE_LIMIT, each with an initial access token to look up: 429
// with Retry-After and an RFC 7591 error before any token is read; the
// count is the registration's own (authorization requests still pass).
// attack: registration-flood
func TestAttackRegistrationFlood(t *testing.T) {
	t.Parallel()
	const limit = 3
	ti := mustIDP(t, func(c *Config) { c.AuthorizeRateLimit = limit })
	for i := 1; i <= limit+2; i++ {
		req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathRegister, strings.NewReader(`{"redirect_uris":["https://app.example/cb"]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer guess-"+strings.Repeat("x", i))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if i <= limit {
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("registration %d with an unknown token = %d %v", i, resp.StatusCode, out)
			}
			continue
		}
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || out["error"] != "temporarily_unavailable" {
			t.Fatalf("registration %d past the limit = %d Retry-After=%q %v", i, resp.StatusCode, resp.Header.Get("Retry-After"), out)
		}
	}
	resp, err := noRedirects.Get(ti.rp().authURL(newFlow()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("an authorization request after the registrations' limit = %d", resp.StatusCode)
	}
}
