package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/migrations"
)

// loadLogins is how many logins (and as many failed sign-ins) each client
// level of TestLoadLogin runs.
const loadLogins = 160

// The load run's organization, application and password.
const (
	loadOrgID    = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e90"
	loadAppID    = "5c0e8a52-0000-4000-8000-000000000090"
	loadClientID = "login-load"
	loadRedirect = "http://127.0.0.1:9/login-load/callback" // never followed
	loadPassword = "load-Passw0rd!"
)

// TestLoadLogin is the login load run of docs/benchmarks.md: the provider
// (the server binary with ROLE=idp, a child process) serves whole password
// logins (authorize with PKCE S256 → the login form → the code at the
// redirect URI → the code exchange) to c = 1, 2, 4, 8, 16 closed-loop
// clients over HTTP, one account each (argon2id with the default
// parameters). Each level runs in a fresh child; the child's CPU
// (utime+stime from /proc/<pid>/stat) is read around the logins and its peak
// resident memory (VmHWM) after them. The hash is measured twice: from
// outside, as failed sign-ins (an unknown address: the form post, one
// lookup and one argon2id verification against the provider's dummy hash,
// then the form again) from as many clients on the same child; and alone,
// in the test process, as many verifications with min(c, slots) in
// parallel, the verifications the provider's queue lets run at once. It
// runs only with LOAD_RUN=1 (TEST_DATABASE_URL for PostgreSQL):
//
//	LOAD_RUN=1 go test ./server -run TestLoadLogin -v -timeout 15m
//
// LOAD_PROVIDER_ENV adds variables to the provider's environment only
// (space-separated, e.g. LOAD_PROVIDER_ENV=GOMEMLIMIT=70MiB).
// LOAD_BASELINE_BIN adds, level by level right after this build, the
// server binary at that path (a build of another commit) on a database of
// its own whose accounts' hashes have baselinePasswordParams, the
// parameters before D-argon2-params.
//
// It asserts that every login succeeded and every failed sign-in failed,
// nothing about timing or memory.
func TestLoadLogin(t *testing.T) {
	// serial: measures the process's CPU and memory
	if os.Getenv("LOAD_RUN") != "1" {
		t.Skip("set LOAD_RUN=1 to run the login load run")
	}
	levels := []int{1, 2, 4, 8, 16}
	type provider struct {
		name, bin, dbURL, hash string
	}
	dbURL := storetest.NewDatabaseURL(t)
	providers := []provider{{name: "this build", bin: serverBinary(t), dbURL: dbURL,
		hash: seedLoadAccounts(t, dbURL, levels[len(levels)-1], idp.DefaultPasswordParams)}}
	if bin := os.Getenv("LOAD_BASELINE_BIN"); bin != "" {
		base := storetest.NewDatabaseURL(t)
		providers = append(providers, provider{name: "baseline", bin: bin, dbURL: base,
			hash: seedLoadAccounts(t, base, levels[len(levels)-1], baselinePasswordParams)})
	}
	slots := runtime.GOMAXPROCS(0) // the provider's hash slots: its GOMAXPROCS, the same machine
	t.Logf("%d logins and %d failed sign-ins per level; hash slots %d; database %s; provider environment %q", loadLogins, loadLogins, slots,
		strings.SplitN(dbURL, ":", 2)[0], os.Getenv("LOAD_PROVIDER_ENV"))
	var rows []string
	for _, c := range levels {
		for _, pv := range providers {
			hash := pv.hash
			p := launchBinary(t, pv.bin, pv.dbURL, append([]string{"ROLE=idp", "LOGIN_RATE_LIMIT=0", "AUTHORIZE_RATE_LIMIT=0"}, strings.Fields(os.Getenv("LOAD_PROVIDER_ENV"))...)...)
			if err := p.waitStarted(); err != nil {
				t.Fatal(err)
			}
			pid := p.cmd.Process.Pid
			lc := newLoadClient(t, p.URL(0))
			lc.login(t, 0) // warm: templates, keys, connections
			idleRSS := procStatusKB(t, pid, "VmRSS:")

			cpu0, start := procCPU(t, pid), time.Now()
			closedLoop(c, loadLogins, func(client int) error { return lc.loginErr(client) }, t)
			elapsed := time.Since(start)
			loginCPU := procCPU(t, pid) - cpu0
			peak := procStatusKB(t, pid, "VmHWM:")
			t.Logf("c=%d %s: after the logins RssAnon %d MiB, RssFile %d MiB (peak VmHWM %d MiB)", c, pv.name,
				procStatusKB(t, pid, "RssAnon:")>>10, procStatusKB(t, pid, "RssFile:")>>10, peak>>10)

			failCPU0 := procCPU(t, pid) // also counts opening the c forms: c authorize requests beside 160 posts
			forms := make([]loadForm, c)
			for i := range forms {
				forms[i] = lc.loginForm(t)
			}
			closedLoop(c, loadLogins, func(client int) error { return lc.failedSignIn(forms[client], client) }, t)
			failCPU := procCPU(t, pid) - failCPU0
			_ = p.cmd.Process.Kill()
			p.wait(10 * time.Second)

			hashCPU := hashAlone(t, hash, min(c, slots), loadLogins)
			perLogin := ms(loginCPU) / loadLogins
			failed := ms(failCPU) / loadLogins
			alone := ms(hashCPU) / loadLogins
			rows = append(rows, fmt.Sprintf("| %d | %s | %.0f/s | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %d MiB | %d MiB |",
				c, pv.name, loadLogins/elapsed.Seconds(), perLogin, failed, alone, perLogin-alone, perLogin-failed, peak>>10, idleRSS>>10))
		}
	}
	t.Logf("\n| c | provider | logins/s | provider CPU/login | failed sign-in (provider) | hash alone (test process) | beyond the hash | beyond the failed sign-in | peak RSS | RSS after start |\n|---|---|---|---|---|---|---|---|---|---|\n%s",
		strings.Join(rows, "\n"))
}

// seedLoadAccounts migrates the database at dbURL and creates the load
// run's organization (with its login policy), its public application and n
// accounts with passwords hashed with params; it returns the hash.
func seedLoadAccounts(t *testing.T, dbURL string, n int, params idp.PasswordParams) string {
	t.Helper()
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.DatabaseURL = dbURL
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	hash, err := idp.HashPassword(loadPassword, params)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if err := st.CreateOrganization(ctx, &platform.Organization{ID: loadOrgID, Name: "Load Run", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	policy := platform.DefaultLoginPolicy(loadOrgID)
	policy.UpdatedAt = now
	if err := st.PutLoginPolicy(ctx, policy); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateApplication(ctx, &platform.Application{AppID: loadAppID, ClientID: loadClientID, Name: "Login load",
		Kind: platform.AppPublic, RedirectURIs: []string{loadRedirect}, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := st.CreateUser(ctx, &platform.User{ID: fmt.Sprintf("2b7e4d10-0000-4000-8000-1000000000%02d", i), OrgID: loadOrgID,
			Email: loadEmail(i), EmailVerified: true, Name: fmt.Sprintf("Load %d", i), PasswordHash: hash,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	return hash
}

// baselinePasswordParams are the argon2id parameters before
// D-argon2-params, a baseline build's.
var baselinePasswordParams = idp.PasswordParams{Memory: 19 * 1024, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16}

func loadEmail(i int) string { return fmt.Sprintf("load-%d@load.example", i) }

// closedLoop runs n calls of f from c clients, each starting its next call
// when its last one answered; a failing call fails the test.
func closedLoop(c, n int, f func(client int) error, t *testing.T) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for client := range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := f(client); err != nil {
					t.Errorf("client %d: %v", client, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// loadClient is the relying party and its users' browsers: one transport
// whose connections are kept, a new cookie jar per login.
type loadClient struct {
	issuer string
	http   *http.Client
	oauth  oauth2.Config
	ctx    context.Context
}

var loadFormField = regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`)

func newLoadClient(t *testing.T, issuer string) *loadClient {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, hc)
	prov, err := gooidc.NewProvider(ctx, issuer)
	if err != nil {
		t.Fatal(err)
	}
	return &loadClient{issuer: issuer, http: hc, ctx: ctx, oauth: oauth2.Config{ClientID: loadClientID,
		Endpoint: prov.Endpoint(), RedirectURL: loadRedirect, Scopes: []string{gooidc.ScopeOpenID, "profile", "email"}}}
}

// browser is a new browser: its own cookies, the client's connections, and
// it stops at the redirect URI.
func (lc *loadClient) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: lc.http.Transport, Jar: jar, Timeout: time.Minute,
		CheckRedirect: func(r *http.Request, _ []*http.Request) error {
			if strings.HasPrefix(r.URL.String(), loadRedirect) {
				return http.ErrUseLastResponse
			}
			return nil
		}}
}

// loadForm is a login form as a browser holds it.
type loadForm struct {
	browser *http.Client
	fields  url.Values
}

// authorize starts a login with PKCE S256 in b and returns the login form.
func (lc *loadClient) authorize(b *http.Client, verifier string) (loadForm, error) {
	resp, err := b.Get(lc.oauth.AuthCodeURL("state-load", oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		return loadForm{}, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return loadForm{}, fmt.Errorf("authorize: %d", resp.StatusCode)
	}
	f := loadForm{browser: b, fields: url.Values{}}
	for _, m := range loadFormField.FindAllStringSubmatch(string(page), -1) {
		f.fields.Set(m[1], m[2])
	}
	if f.fields.Get("authRequestID") == "" || f.fields.Get("csrf") == "" {
		return loadForm{}, fmt.Errorf("authorize: no login form")
	}
	return f, nil
}

// loginErr is one whole login of account i: authorize, the form, the code
// at the redirect URI, the code exchange.
func (lc *loadClient) loginErr(i int) error {
	verifier := oauth2.GenerateVerifier()
	f, err := lc.authorize(lc.browser(), verifier)
	if err != nil {
		return err
	}
	form := url.Values{"email": {loadEmail(i)}, "password": {loadPassword}}
	for k, v := range f.fields {
		form[k] = v
	}
	resp, err := f.browser.PostForm(lc.issuer+idp.PathLogin, form)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound && resp.StatusCode != http.StatusSeeOther || loc.Query().Get("code") == "" {
		return fmt.Errorf("login: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	tok, err := lc.oauth.Exchange(lc.ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return err
	}
	if idt, _ := tok.Extra("id_token").(string); idt == "" || tok.AccessToken == "" {
		return fmt.Errorf("the token response holds no id_token or access token")
	}
	return nil
}

func (lc *loadClient) login(t *testing.T, i int) {
	t.Helper()
	if err := lc.loginErr(i); err != nil {
		t.Fatal(err)
	}
}

// loginForm opens a login form in a new browser.
func (lc *loadClient) loginForm(t *testing.T) loadForm {
	t.Helper()
	f, err := lc.authorize(lc.browser(), oauth2.GenerateVerifier())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// failedSignIn posts form f with an address that has no account: the
// provider looks it up, verifies the password against its dummy hash and
// shows the form again (401) with a new CSRF token, which f then holds.
func (lc *loadClient) failedSignIn(f loadForm, client int) error {
	form := url.Values{"email": {fmt.Sprintf("nobody-%d@load.example", client)}, "password": {"wrong-Passw0rd!"}}
	for k, v := range f.fields {
		form[k] = v
	}
	resp, err := f.browser.PostForm(lc.issuer+idp.PathLogin, form)
	if err != nil {
		return err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("failed sign-in: %d", resp.StatusCode)
	}
	for _, m := range loadFormField.FindAllStringSubmatch(string(page), -1) {
		f.fields.Set(m[1], m[2])
	}
	return nil
}

// hashAlone verifies the password against hash n times with k in parallel
// in the test process and returns the process's CPU for it.
func hashAlone(t *testing.T, hash string, k, n int) time.Duration {
	t.Helper()
	start := selfCPU(t)
	closedLoop(k, n, func(int) error {
		if ok, err := idp.VerifyPassword(loadPassword, hash); !ok || err != nil {
			return fmt.Errorf("verify: %v %v", ok, err)
		}
		return nil
	}, t)
	return selfCPU(t) - start
}

// procCPU is process pid's CPU time so far (utime + stime).
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// the fields after the command name, which may hold spaces: state is
	// field 3, utime 14 and stime 15
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const userHZ = 100 // the unit of /proc/<pid>/stat times on Linux
	return time.Duration(utime+stime) * time.Second / userHZ
}

// procStatusKB is a kB field of /proc/<pid>/status (VmRSS:, VmHWM:).
func procStatusKB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// selfCPU is the test process's CPU time so far.
func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
