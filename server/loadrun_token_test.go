package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/template"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/migrations"
)

// The token load run's service application; Dex's static client
// (testdata/peers/dex.yaml) has the same id and secret.
const (
	tokenLoadAppID    = "5c0e8a52-0000-4000-8000-000000000091"
	tokenLoadClientID = "token-load"
	tokenLoadSecret   = "token-load-secret-0123456789abcdef"
)

// tokenTarget is a token endpoint under load: the platform's or a peer's.
type tokenTarget struct {
	name     string
	endpoint string
	pid      int
	scope    string
}

// TestLoadToken is the token endpoint's load run of docs/benchmarks.md:
// client_credentials grants (RS256) from c = 8 and c = 32 closed-loop
// clients over HTTP against the platform (the server binary, ROLE=idp,
// a child process) and, with DEX_BIN, Dex built from source on SQLite
// (testdata/peers), side by side: for each repetition and level the
// targets run one after the other, in an order that turns each
// repetition. Every request must answer 200 with an access token. It
// reports per run the requests per second, the median and 99th
// percentile latency and the target's CPU per token (/proc/<pid>/stat),
// and the medians over the repetitions. It runs only with LOAD_RUN=1
// (TEST_DATABASE_URL for the platform on PostgreSQL):
//
//	DEX_BIN=… LOAD_RUN=1 go test ./server -run TestLoadToken -v -timeout 30m
//
// LOAD_TOKENS sets the grants per run (default 2000), LOAD_REPS the
// repetitions (default 3), LOAD_PROVIDER_ENV adds to the platform's
// environment; LOAD_BASELINE_BIN adds the server binary at that path (a
// build of another commit, on a database of its own) as one more target.
// It asserts nothing about timing.
func TestLoadToken(t *testing.T) {
	// serial: measures the processes' CPU and latency
	if os.Getenv("LOAD_RUN") != "1" {
		t.Skip("set LOAD_RUN=1 to run the token load run")
	}
	n, reps := envInt("LOAD_TOKENS", 2000), envInt("LOAD_REPS", 3)
	dbURL := storetest.NewDatabaseURL(t)
	seedTokenClient(t, dbURL)
	p := startProcess(t, dbURL, append([]string{"ROLE=idp", "LOGIN_RATE_LIMIT=0", "AUTHORIZE_RATE_LIMIT=0"},
		strings.Fields(os.Getenv("LOAD_PROVIDER_ENV"))...)...)
	targets := []tokenTarget{{name: "platform (" + strings.SplitN(dbURL, ":", 2)[0] + ")",
		endpoint: p.URL(0) + "/oauth/v2/token", pid: p.cmd.Process.Pid}}
	if bin := os.Getenv("LOAD_BASELINE_BIN"); bin != "" { // the platform built from another commit, its own database
		base := storetest.NewDatabaseURL(t)
		seedTokenClient(t, base)
		b := launchBinary(t, bin, base, append([]string{"ROLE=idp", "LOGIN_RATE_LIMIT=0", "AUTHORIZE_RATE_LIMIT=0"},
			strings.Fields(os.Getenv("LOAD_PROVIDER_ENV"))...)...)
		if err := b.waitStarted(); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tokenTarget{name: "baseline (" + strings.SplitN(dbURL, ":", 2)[0] + ")",
			endpoint: b.URL(0) + "/oauth/v2/token", pid: b.cmd.Process.Pid})
	}
	if bin := os.Getenv("DEX_BIN"); bin != "" {
		targets = append(targets, startDex(t, bin))
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	for _, tg := range targets {
		if _, err := tokenGrant(hc, tg); err != nil {
			t.Fatalf("%s: %v", tg.name, err)
		}
	}
	type key struct {
		target string
		c      int
	}
	runs := map[key][]tokenRun{}
	for rep := range reps {
		for _, c := range []int{8, 32} {
			for i := range targets {
				tg := targets[(i+rep)%len(targets)]
				load := loadAverage()
				r := runTokens(t, hc, tg, c, n)
				r.load = load
				runs[key{tg.name, c}] = append(runs[key{tg.name, c}], r)
				t.Logf("rep %d c=%d %s: %.0f/s p50 %.1f ms p99 %.1f ms CPU %.2f ms/token (load %s)", rep+1, c, tg.name,
					r.perSec, r.p50, r.p99, r.cpuMS, load)
			}
		}
	}
	var rows []string
	for _, c := range []int{8, 32} {
		for _, tg := range targets {
			rs := runs[key{tg.name, c}]
			rows = append(rows, fmt.Sprintf("| %d | %s | %.0f/s | %.1f ms | %.1f ms | %.2f ms |", c, tg.name,
				median(rs, func(r tokenRun) float64 { return r.perSec }), median(rs, func(r tokenRun) float64 { return r.p50 }),
				median(rs, func(r tokenRun) float64 { return r.p99 }), median(rs, func(r tokenRun) float64 { return r.cpuMS })))
		}
	}
	t.Logf("%d grants per run, medians of %d repetitions\n| c | token endpoint | grants/s | p50 | p99 | CPU per token |\n|---|---|---|---|---|---|\n%s",
		n, reps, strings.Join(rows, "\n"))
}

type tokenRun struct {
	perSec, p50, p99, cpuMS float64
	load                    string
}

// runTokens runs n client_credentials grants against tg from c closed-loop
// clients and measures them.
func runTokens(t *testing.T, hc *http.Client, tg tokenTarget, c, n int) tokenRun {
	t.Helper()
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	cpu0, start := procCPU(t, tg.pid), time.Now()
	for range c {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t0 := time.Now()
				if _, err := tokenGrant(hc, tg); err != nil {
					failed.Store(err)
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := procCPU(t, tg.pid) - cpu0
	if err, _ := failed.Load().(error); err != nil {
		t.Fatalf("%s: %v", tg.name, err)
	}
	slices.Sort(lat)
	return tokenRun{perSec: float64(n) / elapsed.Seconds(), p50: ms(lat[n/2]), p99: ms(lat[n*99/100]),
		cpuMS: ms(cpu) / float64(n)}
}

// tokenGrant asks tg for one client_credentials access token.
func tokenGrant(hc *http.Client, tg tokenTarget) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if tg.scope != "" {
		form.Set("scope", tg.scope)
	}
	req, _ := http.NewRequest(http.MethodPost, tg.endpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(tokenLoadClientID, tokenLoadSecret)
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &tok) != nil || tok.AccessToken == "" {
		return "", fmt.Errorf("token: %d %s", resp.StatusCode, body)
	}
	return tok.AccessToken, nil
}

// seedTokenClient migrates the database at dbURL and creates the run's
// service application (client_credentials with a client secret; its
// tokens name the client itself).
func seedTokenClient(t *testing.T, dbURL string) {
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
	if err := st.CreateApplication(ctx, &platform.Application{AppID: tokenLoadAppID, ClientID: tokenLoadClientID,
		Name: "Token load", Kind: platform.AppService, SecretHash: idp.HashSecret(tokenLoadSecret),
		CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
}

// startDex runs Dex (the binary at bin) with testdata/peers/dex.yaml on
// SQLite in a temporary directory and waits for its discovery document.
func startDex(t *testing.T, bin string) tokenTarget {
	t.Helper()
	dir := t.TempDir()
	port := freePorts(t, 1)[0]
	hash, err := bcrypt.GenerateFromPassword([]byte(loadPassword), bcrypt.DefaultCost)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.ParseFiles(filepath.Join("testdata", "peers", "dex.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg bytes.Buffer
	if err := tmpl.Execute(&cfg, map[string]any{"Port": port, "DB": filepath.Join(dir, "dex.db"), "PasswordHash": string(hash)}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "dex.yaml")
	if err := os.WriteFile(cfgPath, cfg.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	cmd := exec.Command(bin, "serve", cfgPath)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	issuer := fmt.Sprintf("http://127.0.0.1:%d/dex", port)
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(issuer + "/.well-known/openid-configuration")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("dex did not start: %v\n%s", err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return tokenTarget{name: "Dex (sqlite)", endpoint: issuer + "/token", pid: cmd.Process.Pid}
}

// loadAverage is the 1-minute load average (/proc/loadavg).
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

func envInt(name string, def int) int {
	var v int
	if _, err := fmt.Sscan(os.Getenv(name), &v); err != nil || v <= 0 {
		return def
	}
	return v
}

func median(rs []tokenRun, f func(tokenRun) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	sort.Float64s(v)
	return v[len(v)/2]
}
