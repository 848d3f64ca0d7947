package egress

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var ctx = context.Background()

// target is a real HTTP server that counts the requests it gets.
type target struct {
	*httptest.Server
	hits atomic.Int64
}

// mustTarget serves h on addr ("127.0.0.1:0", "[::1]:0", …), counting
// requests; it skips the test when this host cannot listen there.
func mustTarget(t *testing.T, addr string, h http.HandlerFunc) *target {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s here: %v", addr, err)
	}
	tg := &target{}
	tg.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.hits.Add(1)
		if h == nil {
			fmt.Fprint(w, "hello")
			return
		}
		h(w, r)
	}))
	tg.Listener.Close()
	tg.Listener = ln
	tg.Start()
	t.Cleanup(tg.Close)
	return tg
}

func allow(cidrs ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(cidrs))
	for i, c := range cidrs {
		out[i] = netip.MustParsePrefix(c)
	}
	return out
}

// get requests u and reads the whole body.
func get(c *http.Client, u string) (*http.Response, []byte, error) {
	resp, err := c.Get(u)
	if err != nil {
		return resp, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// mustRefused checks that err is a policy refusal and that tg got nothing.
func mustRefused(t *testing.T, err error, tg *target) {
	t.Helper()
	if !errors.Is(err, ErrBlocked) {
		t.Errorf("err = %v, want ErrBlocked", err)
	}
	if n := tg.hits.Load(); n != 0 {
		t.Errorf("the forbidden server got %d requests", n)
	}
}

// TestAttackLoopback: the zero Policy does not connect to a server on
// 127.0.0.1 or ::1; the same request goes through once Allow names
// loopback, so the refusal is the policy's and not a broken client.
//
// attack: ssrf-loopback
func TestAttackLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		t.Run(addr, func(t *testing.T) {
			tg := mustTarget(t, addr, nil)
			_, _, err := get(Policy{}.Client(), tg.URL)
			mustRefused(t, err, tg)
			if got := Describe(err); got != "refused by the egress policy" {
				t.Errorf("Describe = %q", got)
			}
			resp, body, err := get(Policy{Allow: allow("127.0.0.0/8", "::1/128")}.Client(), tg.URL)
			if err != nil || resp.StatusCode != 200 || string(body) != "hello" || tg.hits.Load() != 1 {
				t.Fatalf("allowed loopback: %v, %v, %q, %d hits", resp, err, body, tg.hits.Load())
			}
		})
	}
}

// TestAttackNameResolvesToInternal: a public-looking name that resolves
// to loopback (or to the metadata address) is refused at connect time, and
// by CheckURL; with loopback allowed the same name reaches the server, so
// the name did resolve.
//
// attack: ssrf-dns-to-internal
func TestAttackNameResolvesToInternal(t *testing.T) {
	tg := mustTarget(t, "127.0.0.1:0", nil)
	_, port, _ := net.SplitHostPort(tg.Listener.Addr().String())
	dns := mustFakeDNS(t)
	dns.set("hooks.example.com", addrs("127.0.0.1"))
	dns.set("metadata.example.com", addrs("169.254.169.254"))
	dns.set("mixed.example.com", addrs("93.184.216.34", "10.0.0.1"))
	p := Policy{Resolver: dns.resolver()}
	u := "http://hooks.example.com:" + port + "/"

	_, _, err := get(p.Client(), u)
	mustRefused(t, err, tg)
	for _, name := range []string{"hooks.example.com", "metadata.example.com", "mixed.example.com", "localhost"} {
		if err := p.CheckURL(ctx, "https://"+name+"/in"); !errors.Is(err, ErrBlocked) {
			t.Errorf("CheckURL(%s) = %v, want ErrBlocked", name, err)
		}
	}

	p.Allow = allow("127.0.0.0/8")
	if err := p.CheckURL(ctx, u); err != nil {
		t.Fatalf("CheckURL with loopback allowed: %v", err)
	}
	if resp, _, err := get(p.Client(), u); err != nil || resp.StatusCode != 200 || tg.hits.Load() != 1 {
		t.Fatalf("allowed: %v, %v", resp, err)
	}
}

// TestAttackDNSRebinding: a name that answers a public address to CheckURL and
// loopback to the request is refused, because the address checked is the
// one the socket connects to.
//
// attack: ssrf-dns-rebinding
func TestAttackDNSRebinding(t *testing.T) {
	tg := mustTarget(t, "127.0.0.1:0", nil)
	_, port, _ := net.SplitHostPort(tg.Listener.Addr().String())
	dns := mustFakeDNS(t)
	dns.set("rebind.example.com", addrs("93.184.216.34"), addrs("127.0.0.1"))
	p := Policy{Resolver: dns.resolver()}
	u := "http://rebind.example.com:" + port + "/"
	if err := p.CheckURL(ctx, u); err != nil {
		t.Fatalf("CheckURL on the first (public) answer: %v", err)
	}
	_, _, err := get(p.Client(), u)
	mustRefused(t, err, tg)
}

// TestAttackAddressSpellings: other spellings of loopback and the unspecified
// address (IPv4-mapped IPv6, decimal, hexadecimal, octal, short forms)
// never reach a loopback server, even when the client allows loopback
// for the unspecified address, which Linux connects to this host.
//
// attack: ssrf-address-spelling
func TestAttackAddressSpellings(t *testing.T) {
	tg := mustTarget(t, "127.0.0.1:0", nil)
	_, port, _ := net.SplitHostPort(tg.Listener.Addr().String())
	dns := mustFakeDNS(t) // knows no names: numeric forms a resolver would read as names fail
	strict, loop := Policy{Resolver: dns.resolver()}, Policy{Resolver: dns.resolver(), Allow: allow("127.0.0.0/8")}
	for _, host := range []string{"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]", "2130706433",
		"0x7f.0.0.1", "0177.0.0.1", "127.1", "0x7f000001", "[::1]", "0.0.0.0", "[::]", "[::ffff:0.0.0.0]"} {
		u := "http://" + host + ":" + port + "/"
		_, _, err := get(strict.Client(), u)
		if err == nil {
			t.Errorf("%s: reached", host)
		}
		if !errors.Is(err, ErrBlocked) && Describe(err) != "DNS lookup failed: no such host" {
			t.Errorf("%s: %v (%s), want refused or unresolved", host, err, Describe(err))
		}
		if err := strict.CheckURL(ctx, u); err == nil {
			t.Errorf("CheckURL(%s) passed", u)
		}
	}
	for _, host := range []string{"0.0.0.0", "[::]", "[::ffff:0.0.0.0]"} {
		_, _, err := get(loop.Client(), "http://"+host+":"+port+"/")
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("%s with loopback allowed: %v, want ErrBlocked", host, err)
		}
	}
	if n := tg.hits.Load(); n != 0 {
		t.Fatalf("the loopback server got %d requests", n)
	}
}

// TestAttackRedirect: an allowed server redirecting to a forbidden
// address does not get the client there: Do answers the 302 with
// ErrRedirect. Even a caller that turns redirects back on cannot reach the
// forbidden address, because the dial checks it.
//
// attack: ssrf-redirect
func TestAttackRedirect(t *testing.T) {
	forbidden := mustTarget(t, "127.0.0.1:0", nil)
	var origin *target
	origin = mustTarget(t, "127.0.0.2:0", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, forbidden.URL+"/secret", http.StatusFound)
		case "/here":
			http.Redirect(w, r, origin.URL+"/done", http.StatusMovedPermanently)
		default:
			fmt.Fprint(w, "done")
		}
	})
	c := Policy{Allow: allow("127.0.0.2/32")}.Client()

	resp, _, err := get(c, origin.URL+"/away")
	if !errors.Is(err, ErrRedirect) || !errors.Is(err, ErrBlocked) || resp == nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("redirect away = %v, %v; want the 302 and ErrRedirect", resp, err)
	}
	if Describe(err) != "redirect not followed (refused by the egress policy)" {
		t.Errorf("Describe = %q", Describe(err))
	}
	// a redirect to the same allowed server is not followed either
	if _, _, err := get(c, origin.URL+"/here"); !errors.Is(err, ErrRedirect) || origin.hits.Load() != 2 {
		t.Fatalf("redirect here = %v, %d hits", err, origin.hits.Load())
	}

	c.CheckRedirect = nil // a careless caller follows redirects
	_, _, err = get(c, origin.URL+"/away")
	mustRefused(t, err, forbidden)
}

// TestAttackOversizedBody: a body of MaxBody bytes reads whole; one byte more fails
// with ErrTooLarge, with or without Content-Length, and a gzip body is
// capped after decompression.
//
// attack: egress-oversized-answer
func TestAttackOversizedBody(t *testing.T) {
	const max = 1000
	tg := mustTarget(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		n := max
		if r.URL.Query().Has("over") {
			n++
		}
		body := bytes.Repeat([]byte("x"), n)
		switch {
		case r.URL.Query().Has("gzip"):
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			_, _ = zw.Write(bytes.Repeat([]byte{0}, 1<<20))
			_ = zw.Close()
		case r.URL.Query().Has("chunked"):
			_, _ = w.Write(body[:10])
			w.(http.Flusher).Flush()
			_, _ = w.Write(body[10:])
		default:
			w.Header().Set("Content-Length", fmt.Sprint(n))
			_, _ = w.Write(body)
		}
	})
	c := Policy{Allow: allow("127.0.0.1/32"), MaxBody: max}.Client()
	for _, q := range []string{"", "chunked"} {
		if _, b, err := get(c, tg.URL+"/?"+q); err != nil || len(b) != max {
			t.Errorf("%q: exactly MaxBody: %d bytes, %v", q, len(b), err)
		}
		_, b, err := get(c, tg.URL+"/?over&"+q)
		if !errors.Is(err, ErrTooLarge) || len(b) > max {
			t.Errorf("%q: MaxBody+1: %d bytes, %v; want ErrTooLarge", q, len(b), err)
		}
		if Describe(err) != "response too large" {
			t.Errorf("Describe = %q", Describe(err))
		}
	}
	if _, b, err := get(c, tg.URL+"/?gzip"); !errors.Is(err, ErrTooLarge) || len(b) > max {
		t.Errorf("gzip bomb: %d bytes, %v; want ErrTooLarge", len(b), err)
	}
}

// TestAttackEnvironmentProxy: HTTPS_PROXY and HTTP_PROXY are ignored; a
// proxy would connect on the client's behalf, past the address check.
//
// attack: ssrf-env-proxy
func TestAttackEnvironmentProxy(t *testing.T) {
	proxy := mustTarget(t, "127.0.0.1:0", nil)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	tg := mustTarget(t, "127.0.0.1:0", nil)
	_, port, _ := net.SplitHostPort(tg.Listener.Addr().String())
	dns := mustFakeDNS(t)
	dns.set("api.example.com", addrs("127.0.0.1"))
	c := Policy{Allow: allow("127.0.0.1/32"), Resolver: dns.resolver()}.Client()
	if tr := c.Transport.(*capped).base; tr.Proxy != nil {
		t.Fatal("the transport has a proxy function")
	}
	if _, _, err := get(c, "http://api.example.com:"+port+"/"); err != nil || tg.hits.Load() != 1 || proxy.hits.Load() != 0 {
		t.Fatalf("err %v, target %d hits, proxy %d hits", err, tg.hits.Load(), proxy.hits.Load())
	}
}

// TestTimeout: a server that never answers is given up after Timeout and
// described as a timeout.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	tg := mustTarget(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	_, _, err := get(Policy{Allow: allow("127.0.0.1/32"), Timeout: 50 * time.Millisecond}.Client(), tg.URL)
	if err == nil || Describe(err) != "timeout" {
		t.Fatalf("err = %v (%q), want a timeout", err, Describe(err))
	}
}

func TestClientDefaults(t *testing.T) {
	c := Policy{}.Client()
	if c.Timeout != DefaultTimeout || c.Transport.(*capped).max != DefaultMaxBody {
		t.Fatalf("defaults: timeout %v, max body %d", c.Timeout, c.Transport.(*capped).max)
	}
	if !strings.Contains((&blockedError{netip.MustParseAddr("10.0.0.1"), "private"}).Error(), "EGRESS_ALLOW") {
		t.Error("a refusal Allow could lift does not say how")
	}
}
