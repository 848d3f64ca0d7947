package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
)

// behindProxy puts a reverse proxy in front of target that, like a load
// balancer, names each client in X-Forwarded-For: here the client it
// pretends to be is taken from the request's X-Test-Client header.
func behindProxy(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(u)
		pr.Out.Header.Set("X-Forwarded-For", pr.In.Header.Get("X-Test-Client"))
		pr.Out.Header.Del("X-Test-Client")
	}}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

func resolveOrgAs(t *testing.T, base, client, forwardedFor string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/login/resolve-org", bytes.NewBufferString(`{"email":"alice@acme.example"}`))
	req.Header.Set("Content-Type", "application/json")
	if client != "" {
		req.Header.Set("X-Test-Client", client)
	}
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Behind a trusted proxy each client has its own rate limit: one client over
// its limit does not lock out the next (as it did when every request seemed
// to come from the proxy). A client talking to the process directly cannot
// pick its address with X-Forwarded-For.
// spec: D-trusted-proxies
// attack: rate-limit-behind-proxy
func TestAttackRateLimitBehindProxy(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.ResolveRateLimit, m.Config.TrustedProxies = 3, "127.0.0.1/32"
	})
	lb := behindProxy(t, m.Config.ConsoleURL)
	for i := 1; i <= 4; i++ {
		code := resolveOrgAs(t, lb, "203.0.113.1", "")
		if (i <= 3 && code != http.StatusOK) || (i == 4 && code != http.StatusTooManyRequests) {
			t.Fatalf("client A request %d through the proxy answered %d", i, code)
		}
	}
	if code := resolveOrgAs(t, lb, "203.0.113.2", ""); code != http.StatusOK {
		t.Fatalf("client B was limited for client A's requests: %d", code)
	}

	direct := mustRunMainWith(t, func(m *Main) { m.Config.ResolveRateLimit = 3 }) // no trusted proxies
	for i := 1; i <= 4; i++ {
		code := resolveOrgAs(t, direct.Config.ConsoleURL, "", "198.51.100."+string(rune('0'+i)))
		if i == 4 && code != http.StatusTooManyRequests {
			t.Fatalf("a client changing its X-Forwarded-For escaped the limit: %d", code)
		}
	}
}

func getAs(t *testing.T, u, client string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("X-Test-Client", client)
	resp, err := noRedirectClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

var noRedirectClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// A client with an IPv6 network picks a new address of its /64 for every
// request and so, counted by address, escapes every per-address limit.
// The limits count an IPv6 client by its /64 (the console's resolve-org
// and the provider's authorization endpoint alike); another /64 has its
// own count, an IPv4 client its address, and an IPv4-mapped IPv6 address
// is that IPv4 address.
// attack: ipv6-address-rotation
func TestAttackIPv6RateLimitByNetwork(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.ResolveRateLimit, m.Config.AuthorizeRateLimit, m.Config.TrustedProxies = 3, 3, "127.0.0.1/32"
	})
	console, provider := behindProxy(t, m.Config.ConsoleURL), behindProxy(t, m.Config.IssuerURL)
	authorize := provider + "/oauth/v2/authorize?client_id=" + m.Config.ConsoleClientID
	for _, tc := range []struct {
		name  string
		limit func(client string) int
	}{
		{"resolve-org", func(client string) int { return resolveOrgAs(t, console, client, "") }},
		{"authorize", func(client string) int { return getAs(t, authorize, client) }},
	} {
		for i, client := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:8000::3"} {
			if code := tc.limit(client); code == http.StatusTooManyRequests {
				t.Fatalf("%s: request %d (%s) within the limit answered 429", tc.name, i+1, client)
			}
		}
		if code := tc.limit("2001:db8:1:2:ffff:ffff:ffff:fffe"); code != http.StatusTooManyRequests {
			t.Fatalf("%s: a fourth address of the same /64 answered %d, want 429", tc.name, code)
		}
		if code := tc.limit("2001:db8:1:3::1"); code == http.StatusTooManyRequests {
			t.Fatalf("%s: another /64 was limited for the first one's requests", tc.name)
		}
		for range 3 {
			tc.limit("203.0.113.7")
		}
		if code := tc.limit("::ffff:203.0.113.7"); code != http.StatusTooManyRequests {
			t.Fatalf("%s: the IPv4-mapped form of a spent IPv4 address answered %d, want 429", tc.name, code)
		}
		if code := tc.limit("203.0.113.8"); code == http.StatusTooManyRequests {
			t.Fatalf("%s: the next IPv4 address was limited", tc.name)
		}
	}
}
