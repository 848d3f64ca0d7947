package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/idp"
)

// nodeSteps runs the Node program script in dir and answers its line
// protocol: send writes a JSON line, next reads the line of a step.
func nodeSteps(t *testing.T, node, dir, script string) (send func(any), next func(step string) map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Dir = dir
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	send = func(v any) {
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	next = func(step string) map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("%s stopped before %s\n%s", script, step, stderr.String())
		}
		var out map[string]any
		if err := json.Unmarshal(lines.Bytes(), &out); err != nil || out["step"] != step {
			t.Fatalf("%s at %s said %s\n%s", script, step, lines.Text(), stderr.String())
		}
		return out
	}
	return send, next
}

// panva's openid-client binds the console portal's tokens to its DPoP key
// as its documentation says: discovery names the proof algorithms, the
// authorization request binds the code to the key (dpop_jkt), the code
// exchange and the refresh answer token_type DPoP (openid-client retries
// once with the token endpoint's DPoP-Nonce), the console API serves the
// bound token with its proofs (and its own nonce), and the bound refresh
// token refuses another key.
// spec: D-dpop
func TestOpenIDClientDPoP(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "openid-client")
	node := nodeTool(t, dir, "openid-client")
	m := MustRunMain(t)
	const email = "bob@acme.example"
	redirect := m.Config.ConsoleURL + "/callback"
	send, next := nodeSteps(t, node, dir, "dpop.mjs")
	send(map[string]any{"issuer": m.Config.IssuerURL, "clientId": m.Config.ConsoleClientID, "redirectUri": redirect,
		"email": email, "api": m.Config.ConsoleURL + "/api/v1/auth/me"})

	if d := next("discovery"); !slices.Contains(d["algs"].([]any), any("ES256")) {
		t.Fatalf("discovery as openid-client reads it: %v", d)
	}
	auth := next("authorize")
	b := pageBrowser(redirect)
	_, page := fetchPage(t, b, http.MethodGet, auth["url"].(string), nil)
	resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", email, "password", DemoPassword)
	send(map[string]any{"callback": resp.Header.Get("Location")})
	if c := next("code"); !strings.EqualFold(c["tokenType"].(string), "dpop") || c["refresh"] != true || c["jkt"] == "" || c["cnf"] != c["jkt"] {
		t.Fatalf("the code exchange as openid-client saw it: %v", c)
	}
	if a := next("api"); a["status"] != float64(200) || a["body"].(map[string]any)["email"] != email {
		t.Fatalf("the console API with the bound token: %v", a)
	}
	if r := next("refresh"); !strings.EqualFold(r["tokenType"].(string), "dpop") {
		t.Fatalf("refresh: %v", r)
	}
	if a := next("api_after_refresh"); a["status"] != float64(200) {
		t.Fatalf("the console API after the refresh: %v", a)
	}
	if s := next("stolen_refresh"); s["error"] != "invalid_dpop_proof" {
		t.Fatalf("a refresh with another key's proofs: %v", s)
	}
}

// panva's openid-client registers itself with a customer's initial access
// token at the discovery's registration_endpoint (RFC 7591) and signs a
// user in as the client it became; its registration is then readable with
// the registration access token it was answered (RFC 7592).
// spec: D-dynamic-registration
func TestOpenIDClientRegistration(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "openid-client")
	node := nodeTool(t, dir, "openid-client")
	m := MustRunMain(t)
	const email, redirect = "bob@acme.example", "http://127.0.0.1:1/registered/cb"
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	iat := registrationToken(t, m, owner.AccessToken, map[string]any{"name": "openid-client", "kinds": []string{"public"},
		"redirectHosts": []string{"127.0.0.1"}, "maxUses": 1})
	send, next := nodeSteps(t, node, dir, "register.mjs")
	send(map[string]any{"issuer": m.Config.IssuerURL, "redirectUri": redirect, "initialAccessToken": iat["token"]})
	reg := next("registered")
	if reg["clientId"] == "" || reg["registrationAccessToken"] == "" {
		t.Fatalf("registration as openid-client saw it: %v", reg)
	}
	auth := next("authorize")
	b := pageBrowser(redirect)
	_, page := fetchPage(t, b, http.MethodGet, auth["url"].(string), nil)
	resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", email, "password", DemoPassword)
	send(map[string]any{"callback": resp.Header.Get("Location")})
	if c := next("code"); c["email"] != email {
		t.Fatalf("the registered client's sign-in: %v", c)
	}
	if code, got := regCall(t, http.MethodGet, reg["registrationClientUri"].(string), reg["registrationAccessToken"].(string), nil); code != http.StatusOK ||
		got["client_name"] != "openid-client registered" {
		t.Fatalf("the registration afterwards: %d %v", code, got)
	}
}
