package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Benchmarks run with -cpu 1 measure CPU per operation of the whole provider
// (HTTP, storage, signing) in one process; see docs/benchmarks.md.
//
//	go test ./internal/idp -run '^$' -bench . -cpu 1 -benchtime 3s

// BenchmarkPasswordHash is one argon2id verification with production parameters.
func BenchmarkPasswordHash(b *testing.B) {
	hash, err := HashPassword(goodPass, DefaultPasswordParams)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := startCPU(b)
	for b.Loop() {
		if ok, _ := VerifyPassword(goodPass, hash); !ok {
			b.Fatal("mismatch")
		}
	}
	cpu.report(b)
}

// cpuMeter reports the process's CPU time (user + system) per operation, which
// leaves out a PostgreSQL server's own work, next to the wall-clock ns/op.
type cpuMeter struct{ start time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU(b *testing.B) *cpuMeter {
	b.ResetTimer()
	return &cpuMeter{start: processCPU()}
}

func (c *cpuMeter) report(b *testing.B) {
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-c.start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkPasswordLogin is a whole login with production argon2id parameters:
// authorize → login page → form post → callback → code exchange with PKCE.
func BenchmarkPasswordLogin(b *testing.B) {
	for _, alg := range []string{"RS256", "ES256"} {
		b.Run(alg, func(b *testing.B) {
			ti := mustIDP(b, func(c *Config) { c.Password, c.SigningAlgorithm = DefaultPasswordParams, alg })
			r := ti.rp()
			b.ReportAllocs()
			cpu := startCPU(b)
			for b.Loop() {
				f := newFlow()
				code := ti.login(ti.browser(), r, f, alice, goodPass)
				if _, err := r.exchange(f, code); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
		})
	}
}

// BenchmarkRefreshGrant is one refresh_token grant per operation: a new
// access token and the rotated refresh token, without an id_token
// (id_token=no, the default: D-refresh-id-token) and with the id_token the
// request asks for with scope=openid (id_token=asked, as every refresh was
// answered before).
func BenchmarkRefreshGrant(b *testing.B) {
	for _, alg := range []string{"RS256", "ES256"} {
		for _, ask := range []bool{false, true} {
			name := alg + "/id_token=no"
			if ask {
				name = alg + "/id_token=asked"
			}
			b.Run(name, func(b *testing.B) {
				ti := mustIDP(b, func(c *Config) { c.SigningAlgorithm = alg })
				r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
				tok, _ := ti.loginTokens(r, alice)
				rt := tok.RefreshToken
				b.ReportAllocs()
				cpu := startCPU(b)
				for b.Loop() {
					rt = ti.refreshForBench(b, r, rt, ask)
				}
				cpu.report(b)
			})
		}
	}
}

// refreshForBench rotates rt, asking for an id_token when ask is set, and
// returns its successor.
func (ti *testIDP) refreshForBench(b *testing.B, r *rp, rt string, ask bool) string {
	if !ask {
		next, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: rt}).Token()
		if err != nil {
			b.Fatal(err)
		}
		return next.RefreshToken
	}
	resp, err := ti.srv.Client().PostForm(r.cfg.Endpoint.TokenURL, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {rt}, "client_id": {r.cfg.ClientID}, "scope": {strings.Join(r.cfg.Scopes, " ")}})
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken      string `json:"id_token"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out.IDToken == "" {
		b.Fatalf("refresh asking for an id_token: %d %v", resp.StatusCode, err)
	}
	return out.RefreshToken
}

// BenchmarkVerifyIDToken is id_token verification by a relying party
// (go-oidc) with the JWKS cached.
func BenchmarkVerifyIDToken(b *testing.B) {
	for _, alg := range []string{"RS256", "ES256"} {
		b.Run(alg, func(b *testing.B) {
			ti := mustIDP(b, func(c *Config) { c.SigningAlgorithm = alg })
			r := ti.rp()
			tok, _ := ti.loginTokens(r, alice)
			raw := tok.Extra("id_token").(string)
			ctx := context.Background()
			if _, err := r.verifier.Verify(ctx, raw); err != nil { // fills the key cache
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := r.verifier.Verify(ctx, raw); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkRefreshGrantParallel is the load run: GOMAXPROCS clients each
// rotate their own refresh-token chain against one provider.
func BenchmarkRefreshGrantParallel(b *testing.B) {
	for _, alg := range []string{"RS256", "ES256"} {
		b.Run(alg, func(b *testing.B) {
			ti := mustIDP(b, func(c *Config) { c.SigningAlgorithm = alg })
			r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
			chains := make(chan string, 64)
			for range cap(chains) {
				tok, _ := ti.loginTokens(r, alice)
				chains <- tok.RefreshToken
			}
			b.ReportAllocs()
			cpu := startCPU(b)
			b.RunParallel(func(pb *testing.PB) {
				rt := <-chains
				for pb.Next() {
					next, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: rt}).Token()
					if err != nil {
						b.Error(err)
						return
					}
					rt = next.RefreshToken
				}
			})
			cpu.report(b)
		})
	}
}
