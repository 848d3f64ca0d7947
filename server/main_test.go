package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/testkit"
)

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	code := m.Run()
	stopChromium()
	os.Exit(code)
}

// MustRunMain starts the all-in-one platform on loopback ports with a fresh
// database and demo data, and stops it when the test ends.
func MustRunMain(t *testing.T) *Main { return mustRunMainWith(t, nil) }

// mustRunMainWith is MustRunMain with a chance to adjust Main before Run.
func mustRunMainWith(t *testing.T, adjust func(*Main)) *Main {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DatabaseURL = storetest.NewMigratedDatabaseURL(t)
	cfg.SecretsKey = testSecretsKey
	cfg.MetricsAddr = "127.0.0.1:0" // a free loopback port: tests run side by side
	cfg.PasswordParams = testPasswordParams
	m := NewMain(cfg)
	for _, role := range []string{RoleIDP, RoleConsole, RoleTenant} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		m.Listeners[role] = ln
		u := "http://" + ln.Addr().String()
		switch role {
		case RoleIDP:
			m.Config.IssuerURL = u
		case RoleConsole:
			m.Config.ConsoleURL = u
		case RoleTenant:
			m.Config.InstanceURL = u
		}
	}
	if adjust != nil {
		adjust(m)
	}
	addSigningKey(t, m.Config)
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// testPasswordParams are the cheapest argon2id parameters, for the tests
// whose subject is not the hash (the load run keeps the default ones).
var testPasswordParams = idp.PasswordParams{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

// addSigningKey stores an RS256 key from the test binary's pool in the
// database of cfg, which the identity provider then signs with instead of
// generating one; with another algorithm it makes its own.
func addSigningKey(t *testing.T, cfg Config) {
	t.Helper()
	if cfg.SigningAlgorithm != "RS256" || !(cfg.Role == RoleAll || cfg.Role == RoleIDP) {
		return
	}
	ctx := context.Background()
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// the identity provider's defaults: rotation after 30 days, published an
	// hour ahead, kept an hour (the longest token lifetime) after
	now := time.Now().UTC()
	if err := st.CreateSigningKey(ctx, &store.SigningKey{ID: uuid.NewString(), Algorithm: cfg.SigningAlgorithm,
		PrivateKey: testkit.SigningKey(t), CreatedAt: now, NotBefore: now,
		ExpiresAt: now.Add(30*24*time.Hour + 2*time.Hour)}); err != nil {
		t.Fatal(err)
	}
}

const testSecretsKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes, tests only

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// metricsURL is where m serves /metrics.
func metricsURL(m *Main) string {
	return "http://" + m.Listeners[ListenerMetrics].Addr().String() + "/metrics"
}

// Every role answers /healthz and /readyz (checks the database); /metrics is
// served on the metrics listener only, with every role's counters, and on
// none of the public listeners (D-metrics).
func TestOpsEndpoints(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	for _, base := range []string{m.Config.IssuerURL, m.Config.ConsoleURL, m.Config.InstanceURL} {
		if code, body := get(t, base+"/healthz"); code != 200 || !strings.Contains(body, `"ok"`) {
			t.Errorf("%s/healthz = %d %s", base, code, body)
		}
		if code, body := get(t, base+"/readyz"); code != 200 || !strings.Contains(body, `"ready"`) {
			t.Errorf("%s/readyz = %d %s", base, code, body)
		}
	}
	code, body := get(t, metricsURL(m))
	for _, role := range []string{RoleIDP, RoleConsole, RoleTenant} {
		if want := `http_requests_total{role="` + role + `",route="/healthz",status="200"}`; code != 200 || !strings.Contains(body, want) {
			t.Fatalf("metrics = %d, missing %s:\n%.2000s", code, want, body)
		}
	}
	if host, _, _ := net.SplitHostPort(m.Listeners[ListenerMetrics].Addr().String()); host != "127.0.0.1" {
		t.Errorf("metrics listen on %s, want loopback", host)
	}
	m.Store.Close() // the database goes away: ready no more, healthy still
	if code, _ := get(t, m.Config.IssuerURL+"/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with the database closed = %d, want 503", code)
	}
	if code, _ := get(t, m.Config.IssuerURL+"/healthz"); code != 200 {
		t.Fatalf("healthz with the database closed = %d", code)
	}
}

// demoLogin runs a whole code + PKCE login of a demo user for a client and
// returns its tokens and the id_token's claims.
func demoLogin(t *testing.T, m *Main, clientID, redirect, email string, scopes ...string) (*oauth2.Token, map[string]any) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return demoLoginIn(t, m, jar, clientID, redirect, email, scopes...)
}

// demoLoginIn is demoLogin in a browser whose cookies (the provider
// session) are jar.
func demoLoginIn(t *testing.T, m *Main, jar http.CookieJar, clientID, redirect, email string, scopes ...string) (*oauth2.Token, map[string]any) {
	t.Helper()
	ctx := context.Background()
	prov, err := gooidc.NewProvider(ctx, m.Config.IssuerURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg := oauth2.Config{ClientID: clientID, Endpoint: prov.Endpoint(), RedirectURL: redirect,
		Scopes: append([]string{"openid", "profile", "email"}, scopes...)}
	verifier, state, nonce := oauth2.GenerateVerifier(), "state-1", "nonce-1"
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := c.Get(cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), gooidc.Nonce(nonce),
		oauth2.SetAuthURLParam("login_hint", email)))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"email": {email}, "password": {DemoPassword}}
	for _, mm := range regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(mm[1], mm[2])
	}
	resp, err = c.PostForm(m.Config.IssuerURL+idp.PathLogin, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		t.Fatalf("callback = %v", loc)
	}
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	idt, err := prov.Verifier(&gooidc.Config{ClientID: cfg.ClientID}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	if idt.Nonce != nonce {
		t.Fatalf("nonce %q", idt.Nonce)
	}
	var claims map[string]any
	_ = idt.Claims(&claims)
	return tok, claims
}

// A demo user logs in through a real relying party with the seeded console
// portal application, and the id_token verifies against the JWKS.
// spec: R2.5-console-app, R4.4-callbacks
func TestDemoLogin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	_, claims := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example",
		idp.ScopeResourceOwner, idp.ScopeOrgPrefix+DemoAcmeOrgID)
	if claims["email"] != "alice@acme.example" || claims[idp.ClaimResourceOwnerID] != DemoAcmeOrgID {
		t.Fatalf("claims = %v", claims)
	}
}

func me(t *testing.T, m *Main, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// /metrics is not on any public listener: it shows every role's routes and
// the process's internals. The metrics listener serves nothing else.
//
// attack: public-metrics
func TestAttackMetricsNotPublic(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	for _, base := range []string{m.Config.IssuerURL, m.Config.ConsoleURL, m.Config.InstanceURL} {
		for _, path := range []string{"/metrics", "/metrics/", "/api/v1/metrics"} {
			code, body := get(t, base+path)
			if code == 200 || strings.Contains(body, "http_requests_total") || strings.Contains(body, "go_goroutines") {
				t.Errorf("%s%s = %d and shows metrics: %.200s", base, path, code, body)
			}
		}
	}
	metricsBase := strings.TrimSuffix(metricsURL(m), "/metrics")
	for _, path := range []string{"/healthz", "/api/v1/auth/me", "/"} {
		if code, _ := get(t, metricsBase+path); code != http.StatusNotFound {
			t.Errorf("metrics listener %s = %d, want 404", path, code)
		}
	}
	if code, body := get(t, metricsURL(m)); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("metrics listener /metrics = %d", code)
	}
}

// GET /api/v1/auth/me answers the role and customer from the console's own
// data for a console access token, and nothing for anything else.
// spec: R4.1-me, R5.7-claims
func TestAuthMe(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	tok, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	code, body := me(t, m, tok.AccessToken)
	if code != 200 || body["role"] != "owner" || body["customerId"] != DemoAcmeCustomerID || body["email"] != "alice@acme.example" {
		t.Fatalf("me = %d %v", code, body)
	}
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	if code, body := me(t, m, admin.AccessToken); code != 200 || body["role"] != "platform_admin" || body["customerId"] != nil {
		t.Fatalf("me (internal) = %d %v", code, body)
	}
	parts := strings.Split(tok.AccessToken, ".")
	instance, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	for name, token := range map[string]string{
		"ErrNoToken":           "",
		"ErrGarbage":           "abc",
		"ErrTamperedSignature": parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])),
		"ErrOtherAudience":     instance.AccessToken,
	} {
		t.Run(name, func(t *testing.T) {
			if code, body := me(t, m, token); code != http.StatusUnauthorized || body["code"] != float64(401) {
				t.Fatalf("me = %d %v, want 401", code, body)
			}
		})
	}
}

// The seeded instance application registers both callback paths.
// spec: R9-callbacks, R2.5-instance-app
func TestDemoInstanceApplication(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	app, err := m.Store.ApplicationByClientID(context.Background(), m.Config.InstanceClientID)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{m.Config.InstanceURL + "/auth/callback", m.Config.InstanceURL + "/3/auth/callback"}
	if strings.Join(app.RedirectURIs, " ") != strings.Join(want, " ") {
		t.Fatalf("redirect URIs = %v, want %v", app.RedirectURIs, want)
	}
}

// The binary starts with no setup, prints its URLs, and stops cleanly on SIGTERM.
func TestBinaryStartsAndStopsOnSIGTERM(t *testing.T) {
	// serial: its server processes listen on ports picked free beforehand (freePorts),
	// which a test running beside it could take first
	bin := serverBinary(t) // built once per test binary; skipped with -short
	ports := freePorts(t, 4)
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+storetest.NewDatabaseURL(t),
		fmt.Sprintf("IDP_ADDR=127.0.0.1:%d", ports[0]), fmt.Sprintf("ISSUER_URL=http://127.0.0.1:%d", ports[0]),
		fmt.Sprintf("CONSOLE_ADDR=127.0.0.1:%d", ports[1]), fmt.Sprintf("CONSOLE_URL=http://127.0.0.1:%d", ports[1]),
		fmt.Sprintf("TENANT_ADDR=127.0.0.1:%d", ports[2]), fmt.Sprintf("INSTANCE_URL=http://127.0.0.1:%d", ports[2]),
		fmt.Sprintf("METRICS_ADDR=127.0.0.1:%d", ports[3]))
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	banner := make(chan string, 1)
	go func() {
		var b strings.Builder
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "Demo log-ins") {
				banner <- b.String()
			}
		}
	}()
	select {
	case out := <-banner:
		if !strings.Contains(out, fmt.Sprintf("http://127.0.0.1:%d", ports[0])) ||
			!strings.Contains(out, fmt.Sprintf("http://127.0.0.1:%d/metrics", ports[3])) {
			t.Fatalf("banner lacks the issuer or the metrics URL:\n%s", out)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no start-up banner within 60 s")
	}
	if code, _ := get(t, fmt.Sprintf("http://127.0.0.1:%d/readyz", ports[1])); code != 200 {
		t.Fatalf("readyz = %d", code)
	}
	if code, body := get(t, fmt.Sprintf("http://127.0.0.1:%d/metrics", ports[3])); code != 200 || !strings.Contains(body, "http_requests_total") {
		t.Fatalf("metrics on METRICS_ADDR = %d", code)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("did not stop within 30 s of SIGTERM")
	}
}

// A bad configuration stops the binary with every problem listed.
func TestBinaryRefusesBadConfig(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(serverBinary(t)) // built once per test binary; skipped with -short
	cmd.Env = append(os.Environ(), "ROLE=nope", "LOG_FORMAT=xml")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 && ee.ExitCode() != 2 {
		t.Fatalf("exit = %v, want a failure\n%s", err, out)
	}
	if !strings.Contains(string(out), "ROLE") || !strings.Contains(string(out), "LOG_FORMAT") {
		t.Fatalf("output does not list both problems:\n%s", out)
	}
}

func freePorts(t *testing.T, n int) []int {
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// The demo's SSO-only organization (Initech) sends its users to its
// directory without a login page of its own; the user who comes back is a
// user of Initech.
// spec: R5.4-skip
func TestDemoSSOOrganization(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := context.Background()
	prov, err := gooidc.NewProvider(ctx, m.Config.IssuerURL)
	if err != nil {
		t.Fatal(err)
	}
	redirect := m.Config.ConsoleURL + "/callback"
	cfg := oauth2.Config{ClientID: m.Config.ConsoleClientID, Endpoint: prov.Endpoint(), RedirectURL: redirect,
		Scopes: []string{"openid", "email", idp.ScopeOrgPrefix + DemoInitechOrgID, idp.ScopeOrgIDPPrefix + DemoInitechIDPID}}
	verifier := oauth2.GenerateVerifier()
	jar, _ := cookiejar.New(nil)
	var seen []string
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		seen = append(seen, r.URL.String())
		if strings.HasPrefix(r.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := c.Get(cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// the page shown is the directory's sign-in, reached through an authorize request of the federation client
	if !strings.Contains(strings.Join(seen, " "), "client_id="+demoDirClientID) {
		t.Fatalf("not sent to the directory: %v", seen)
	}
	form := url.Values{"email": {"peter@initech.example"}, "password": {DemoPassword}}
	for _, mm := range regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(mm[1], mm[2])
	}
	resp, err = c.PostForm(m.Config.IssuerURL+idp.PathLogin, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v (callback %v)", err, loc)
	}
	idt, err := prov.Verifier(&gooidc.Config{ClientID: cfg.ClientID}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	_ = idt.Claims(&claims)
	if claims[idp.ClaimResourceOwnerID] != DemoInitechOrgID || claims["email"] != "peter@initech.example" {
		t.Fatalf("claims = %v, want a user of Initech", claims)
	}
}
