package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/testkit"
)

// loadBalancer is a round-robin reverse proxy in front of the replicas'
// listeners of one role, as operators run them: it health-checks /readyz,
// sends requests only to ready backends, names the client in
// X-Forwarded-For, and retries an idempotent request once on another
// backend when the connection to the first fails (like most load balancers,
// it does not retry a POST).
type loadBalancer struct {
	t        *testing.T
	ln       net.Listener
	mu       sync.Mutex
	backends []*backend
	next     int
	picked   []string // the backend of each request, in order
	client   *http.Client
}

type backend struct {
	url   string
	ready atomic.Bool
}

func newLoadBalancer(t *testing.T) *loadBalancer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb := &loadBalancer{t: t, ln: ln, client: &http.Client{Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	srv := &http.Server{Handler: lb}
	go func() { _ = srv.Serve(ln) }()
	ctx, cancel := context.WithCancel(context.Background())
	go lb.healthChecks(ctx)
	t.Cleanup(func() { cancel(); srv.Close() })
	return lb
}

func (lb *loadBalancer) URL() string { return "http://" + lb.ln.Addr().String() }

func (lb *loadBalancer) add(u string) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	lb.backends = append(lb.backends, &backend{url: u})
}

func (lb *loadBalancer) remove(u string) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for i, b := range lb.backends {
		if b.url == u {
			lb.backends = append(lb.backends[:i], lb.backends[i+1:]...)
			return
		}
	}
}

// healthChecks asks every backend's /readyz every 25 ms.
func (lb *loadBalancer) healthChecks(ctx context.Context) {
	c := &http.Client{Timeout: time.Second}
	for ctx.Err() == nil {
		lb.mu.Lock()
		bs := append([]*backend(nil), lb.backends...)
		lb.mu.Unlock()
		for _, b := range bs {
			resp, err := c.Get(b.url + "/readyz")
			ok := err == nil && resp.StatusCode == http.StatusOK
			if resp != nil {
				resp.Body.Close()
			}
			b.ready.Store(ok)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// waitReady waits until n backends are ready.
func (lb *loadBalancer) waitReady(n int) {
	lb.t.Helper()
	testkit.Eventually(lb.t, fmt.Sprintf("%d backends ready", n), func() bool {
		lb.mu.Lock()
		defer lb.mu.Unlock()
		ready := 0
		for _, b := range lb.backends {
			if b.ready.Load() {
				ready++
			}
		}
		return ready >= n
	})
}

func (lb *loadBalancer) pick(skip string) *backend {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for range len(lb.backends) {
		b := lb.backends[lb.next%len(lb.backends)]
		lb.next++
		if b.ready.Load() && b.url != skip {
			lb.picked = append(lb.picked, b.url)
			return b
		}
	}
	return nil
}

func (lb *loadBalancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	client, _, _ := net.SplitHostPort(r.RemoteAddr)
	tried := ""
	for range 2 {
		b := lb.pick(tried)
		if b == nil {
			http.Error(w, "no ready backend", http.StatusServiceUnavailable)
			return
		}
		tried = b.url
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, b.url+r.URL.RequestURI(), bytes.NewReader(body))
		out.Header = r.Header.Clone()
		out.Header.Set("X-Forwarded-For", client)
		resp, err := lb.client.Do(out)
		if err != nil {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				continue // an idempotent request whose connection failed: the next backend
			}
			http.Error(w, "backend failed: "+err.Error(), http.StatusBadGateway)
			return
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		resp.Body.Close()
		return
	}
	http.Error(w, "every backend failed", http.StatusBadGateway)
}

// replicaSet is replicas of the platform on one PostgreSQL database behind
// one load balancer per role.
type replicaSet struct {
	t        *testing.T
	db       string
	idp, con *loadBalancer
	procs    []*process
}

func newReplicaSet(t *testing.T) *replicaSet {
	return &replicaSet{t: t, db: storetest.NewDatabaseURL(t), idp: newLoadBalancer(t), con: newLoadBalancer(t)}
}

// launch starts a replica (not waiting for it) whose public URLs are the
// load balancers'.
func (rs *replicaSet) launch() *process {
	p := launchProcess(rs.t, rs.db, "ISSUER_URL="+rs.idp.URL(), "CONSOLE_URL="+rs.con.URL(), "DRAIN_DELAY=1s",
		"SHUTDOWN_GRACE=10s", "RESOLVE_RATE_LIMIT=0", "TRUSTED_PROXIES=127.0.0.1/32")
	rs.procs = append(rs.procs, p)
	return p
}

func (rs *replicaSet) join(p *process) {
	rs.idp.add(p.URL(0))
	rs.con.add(p.URL(1))
}

// Replicas on one PostgreSQL database behind a load balancer (issue of
// D-trusted-proxies, D-deadlines, D-drain): they start together on an empty
// database, a login whose every step goes to the other replica works, and a
// rolling restart under load fails no request.
func TestReplicas(t *testing.T) {
	// serial: its server processes listen on ports picked free beforehand (freePorts),
	// which a test running beside it could take first
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("replicas share a PostgreSQL database; set " + storetest.EnvPostgres)
	}
	t.Run("ColdStartTogether", func(t *testing.T) {
		for round := range 3 {
			rs := newReplicaSet(t)
			a, b := rs.launch(), rs.launch()
			for i, p := range []*process{a, b} {
				if err := p.waitStarted(); err != nil {
					t.Fatalf("round %d, replica %d: %v", round, i, err)
				}
			}
		}
	})

	rs := newReplicaSet(t)
	a, b := rs.launch(), rs.launch()
	for _, p := range []*process{a, b} {
		if err := p.waitStarted(); err != nil {
			t.Fatal(err)
		}
		rs.join(p)
	}
	rs.idp.waitReady(2)
	rs.con.waitReady(2)

	t.Run("LoginAcrossReplicas", func(t *testing.T) {
		before := len(rs.idp.picked)
		tok := rs.login(t, "admin@platform.example")
		steps := rs.idp.picked[before:]
		alternated := len(steps) >= 4
		for i := 1; i < len(steps); i++ {
			alternated = alternated && steps[i] != steps[i-1]
		}
		if !alternated {
			t.Fatalf("the login's steps did not alternate replicas: %v", steps)
		}
		if tok.AccessToken == "" {
			t.Fatal("no access token")
		}
	})

	t.Run("RollingRestartUnderLoad", func(t *testing.T) {
		var done, failed atomic.Int64
		var failures sync.Map
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &http.Client{Timeout: 30 * time.Second}
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					var resp *http.Response
					var err error
					if i%2 == 0 {
						resp, err = c.Get(rs.idp.URL() + "/oauth/v2/keys")
					} else {
						resp, err = c.Post(rs.con.URL()+"/api/v1/login/resolve-org", "application/json",
							strings.NewReader(`{"email":"alice@acme.example"}`))
					}
					done.Add(1)
					if err != nil || resp.StatusCode != http.StatusOK {
						failed.Add(1)
						msg := fmt.Sprint(err)
						if resp != nil {
							msg = resp.Status
						}
						failures.Store(msg, true)
					}
					if resp != nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}()
		}
		for _, old := range []*process{a, b} {
			fresh := rs.launch()
			if err := fresh.waitStarted(); err != nil {
				t.Fatal(err)
			}
			rs.join(fresh)
			rs.idp.waitReady(3)
			rs.con.waitReady(3)
			if err := old.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err, ok := old.wait(60 * time.Second); !ok || err != nil {
				t.Fatalf("the old replica's exit: %v (exited %v)", err, ok)
			}
			rs.idp.remove(old.URL(0))
			rs.con.remove(old.URL(1))
		}
		close(stop)
		wg.Wait()
		var kinds []string
		failures.Range(func(k, _ any) bool { kinds = append(kinds, k.(string)); return true })
		if n := failed.Load(); n > 0 || done.Load() < 50 {
			t.Fatalf("%d of %d requests failed during the rolling restart: %v", n, done.Load(), kinds)
		}
		t.Logf("%d requests, none failed, while both replicas were replaced", done.Load())
	})
}

var formField = regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`)

// login signs email in with the console's public client through the load
// balancer, step by step, and exchanges the code.
func (rs *replicaSet) login(t *testing.T, email string) *oauth2.Token {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	redirect := rs.con.URL() + "/callback"
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	ctx := gooidc.ClientContext(context.Background(), &http.Client{Timeout: 30 * time.Second})
	prov, err := gooidc.NewProvider(ctx, rs.idp.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg := oauth2.Config{ClientID: "console-portal", Endpoint: prov.Endpoint(), RedirectURL: redirect,
		Scopes: []string{"openid", "email"}}
	verifier, state, nonce := oauth2.GenerateVerifier(), "st-"+oauth2.GenerateVerifier()[:8], "n-"+oauth2.GenerateVerifier()[:8]
	resp, err := browser.Get(cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), gooidc.Nonce(nonce)))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"email": {email}, "password": {DemoPassword}}
	for _, m := range formField.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], m[2])
	}
	resp, err = browser.PostForm(rs.idp.URL()+"/ui/login", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc == nil || loc.Query().Get("code") == "" || loc.Query().Get("state") != state {
		t.Fatalf("login through the load balancer: %d Location=%q\n%.500s", resp.StatusCode, resp.Header.Get("Location"), page)
	}
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	idt, err := prov.Verifier(&gooidc.Config{ClientID: "console-portal"}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil || idt.Nonce != nonce {
		t.Fatalf("id_token from the other replica: %v", err)
	}
	return tok
}
