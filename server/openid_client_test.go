package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
)

// nodeTool returns node for a test that runs dir's Node program. The
// program's node_modules come from its committed lock file, installed by
// .ci/run (npm ci in dir); tests never install into the tree. Without node or
// the modules the test is skipped, except under CI=true, where it must run.
func nodeTool(t *testing.T, dir, module string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", module))
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v: this test must run in CI (.ci/run installs %s with npm ci)", err, dir)
		}
		t.Skipf("%v: run npm ci in %s", err, dir)
	}
	return node
}

// pageBrowser is a browser that stops at redirects to stopAt.
func pageBrowser(stopAt string) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.String(), stopAt) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

func fetchPage(t *testing.T, c *http.Client, method, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	var resp *http.Response
	var err error
	if method == http.MethodGet {
		resp, err = c.Get(u)
	} else {
		resp, err = c.PostForm(u, form)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var anyFormField = regexp.MustCompile(`<input[^>]* name="([^"]+)" value="([^"]*)"`)

// submit posts page's form fields (hidden or filled in) with extra to action.
func submit(t *testing.T, c *http.Client, action, page string, extra ...string) (*http.Response, string) {
	t.Helper()
	form := url.Values{}
	for _, f := range anyFormField.FindAllStringSubmatch(page, -1) {
		form.Set(f[1], html.UnescapeString(f[2]))
	}
	for i := 0; i+1 < len(extra); i += 2 {
		form.Set(extra[i], extra[i+1])
	}
	return fetchPage(t, c, http.MethodPost, action, form)
}

// panva's openid-client, a relying party no one here wrote, uses the
// provider as its documentation says: discovery, client_credentials with
// private_key_jwt for a service account whose token the console API
// accepts, PAR with the authorization code and PKCE for an application
// that requires PAR, a refresh, the device flow approved in a browser,
// and the service account's delegation of the user's token (token exchange).
// spec: D-service-accounts, D-impersonation
func TestOpenIDClient(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "openid-client")
	node := nodeTool(t, dir, "openid-client")
	m := MustRunMain(t)
	const email, redirect = "bob@acme.example", "http://127.0.0.1:1/openid-client/cb"

	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	code, sa := adminCall(t, m, admin.AccessToken, "POST", "/customers/"+DemoAcmeCustomerID+"/service-accounts",
		map[string]any{"name": "openid-client", "role": "viewer", "authMethod": "private_key_jwt", "jwks": publicJWKS(t, key)})
	if code != http.StatusCreated {
		t.Fatalf("service account: %d %v", code, sa)
	}
	privateJWK, _ := json.Marshal(jose.JSONWebKey{Key: key, KeyID: "ci-1", Algorithm: "ES256"})
	if err := m.Store.CreateApplication(context.Background(), &platform.Application{AppID: "5c0e8a52-0000-4000-8000-0000000000f1",
		ClientID: "openid-client-rp", Name: "openid-client RP", Kind: platform.AppPublic, RedirectURIs: []string{redirect},
		RequirePAR: true, DeviceFlow: true, CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "rp.mjs")
	cmd.Dir = dir
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	next := func(step string) map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("openid-client stopped before %s\n%s", step, stderr.String())
		}
		var out map[string]any
		if err := json.Unmarshal(lines.Bytes(), &out); err != nil || out["step"] != step {
			t.Fatalf("openid-client at %s said %s\n%s", step, lines.Text(), stderr.String())
		}
		return out
	}
	send(map[string]any{"issuer": m.Config.IssuerURL, "consoleUrl": m.Config.ConsoleURL,
		"serviceAccount": map[string]any{"clientId": sa["clientId"], "kid": "ci-1", "privateJwk": json.RawMessage(privateJWK)},
		"app":            map[string]any{"clientId": "openid-client-rp", "redirectUri": redirect}})

	d := next("discovery")
	methods, _ := d["authMethods"].([]any)
	if d["par"] != m.Config.IssuerURL+"/oauth/v2/par" || d["device"] == "" || d["backchannelLogout"] != true ||
		!slices.Contains(methods, any("private_key_jwt")) {
		t.Fatalf("discovery as openid-client reads it: %v", d)
	}

	cc := next("client_credentials")
	if code, who := me(t, m, cc["accessToken"].(string)); code != http.StatusOK {
		t.Fatalf("the service account's token at the console API: %d %v", code, who)
	}

	auth := next("authorize")
	if !strings.Contains(auth["url"].(string), "request_uri=") || strings.Contains(auth["url"].(string), "code_challenge") {
		t.Fatalf("openid-client did not push the request: %v", auth["url"])
	}
	b := pageBrowser(redirect)
	_, page := fetchPage(t, b, http.MethodGet, auth["url"].(string), nil)
	resp, _ := submit(t, b, m.Config.IssuerURL+idp.PathLogin, page, "email", email, "password", DemoPassword)
	send(map[string]any{"callback": resp.Header.Get("Location")})
	got := next("code")
	if got["email"] != email || got["sid"] == "" || got["refresh"] != true {
		t.Fatalf("code flow as openid-client saw it: %v", got)
	}
	if r := next("refresh"); r["rotated"] != true || r["accessToken"] == "" {
		t.Fatalf("refresh: %v", r)
	}

	dev := next("device")
	tv := pageBrowser(redirect)
	_, entry := fetchPage(t, tv, http.MethodGet, dev["verificationUriComplete"].(string), nil)
	_, confirm := submit(t, tv, m.Config.IssuerURL+idp.PathDevice, entry, "user_code", dev["userCode"].(string))
	if !strings.Contains(confirm, "openid-client RP") {
		t.Fatalf("the device confirmation does not name the application:\n%.800s", confirm)
	}
	_, login := submit(t, tv, m.Config.IssuerURL+idp.PathDeviceDecide, confirm, "decision", "approve")
	if _, done := submit(t, tv, m.Config.IssuerURL+idp.PathLogin, login, "email", email, "password", DemoPassword); !strings.Contains(done, "Device signed in") {
		t.Fatalf("after the device sign-in:\n%.800s", done)
	}
	if dt := next("device_tokens"); dt["sub"] != got["sub"] || dt["accessToken"] == "" {
		t.Fatalf("device tokens: %v (want sub %v)", dt, got["sub"])
	}
	// the service account acts for the user at the console (D-impersonation)
	ex := next("exchange")
	tok, _ := ex["accessToken"].(string)
	if tok == "" || ex["refresh"] != false || ex["issuedTokenType"] != "urn:ietf:params:oauth:token-type:access_token" {
		t.Fatalf("token exchange as openid-client saw it: %v", ex)
	}
	code, who := me(t, m, tok)
	actor, _ := who["actor"].(map[string]any)
	if code != http.StatusOK || who["userId"] != got["sub"] || actor["userId"] == nil || actor["impersonationId"] != "" {
		t.Fatalf("the delegated token at the console API: %d %v", code, who)
	}
}
