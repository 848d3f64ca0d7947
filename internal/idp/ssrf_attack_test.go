package idp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// captureLogs sends the default logger to w for the rest of the test.
func captureLogs(t *testing.T, w *bytes.Buffer) {
	t.Helper()
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(old) })
}

// internalTarget is a server on 127.0.0.2, an internal address the egress
// policy of the tests does not allow (only 127.0.0.1 is), standing for
// 169.254.169.254 or a database's admin port. It counts what reaches it.
func internalTarget(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 on this machine: %v", err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"secret":"instance credentials"}`))
	}))
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}

// rewriteDiscovery serves the external provider with one field of its
// discovery document replaced, as a provider under the attacker's control
// would.
func rewriteDiscovery(ext *externalOP, field, value string) {
	inner := ext.srv.Config.Handler
	ext.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/.well-known/openid-configuration") {
			inner.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		var doc map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &doc)
		doc[field] = value
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
}

// A customer admin points SSO at internal addresses: the issuer itself, the
// JWKS or the token endpoint of a discovery document, or a redirect from an
// allowed host. The provider's requests are refused by the egress policy
// before they reach the internal server, the sign-in ends on the generic
// error page, and nothing of the internal answer shows (D-egress).
// attack: sso-ssrf
func TestAttackSSOSSRF(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, ti *testIDP, target string) (*externalOP, string)
	}{
		{"Issuer", func(t *testing.T, ti *testIDP, target string) (*externalOP, string) {
			return nil, target + "/"
		}},
		{"RedirectFromAllowedHost", func(t *testing.T, ti *testIDP, target string) (*externalOP, string) {
			srv := httptest.NewServer(http.RedirectHandler(target+"/.well-known/openid-configuration", http.StatusFound))
			t.Cleanup(srv.Close)
			return nil, srv.URL + "/"
		}},
		{"JWKS", func(t *testing.T, ti *testIDP, target string) (*externalOP, string) {
			ext := startExternalOP(t, ti.issuer, nil)
			rewriteDiscovery(ext, "jwks_uri", target+"/keys")
			return ext, ext.issuer
		}},
		{"TokenEndpoint", func(t *testing.T, ti *testIDP, target string) (*externalOP, string) {
			ext := startExternalOP(t, ti.issuer, nil)
			rewriteDiscovery(ext, "token_endpoint", target+"/token")
			return ext, ext.issuer
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t)
			target, hits := internalTarget(t)
			var logs bytes.Buffer
			captureLogs(t, &logs)
			ext, issuer := tc.setup(t, ti, target)
			idpID := ti.mustSSOProvider(t, issuer, ssoOnly(true), hits)
			r := ti.rp()
			authURL := r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID))
			var resp *http.Response
			var body string
			if ext != nil {
				resp, body, _ = ti.ssoLogin(t, ext, authURL)
			} else {
				resp, body = ti.browser().get(authURL)
			}
			if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, "Reference:") {
				t.Fatalf("SSO through an internal address answered %d, want the generic 502 page", resp.StatusCode)
			}
			if n := hits.Load(); n != 0 {
				t.Fatalf("the internal server was reached %d times", n)
			}
			if strings.Contains(body, "instance credentials") || strings.Contains(logs.String(), "instance credentials") {
				t.Fatal("the internal answer leaked into the page or the log")
			}
			if !strings.Contains(logs.String(), "egress policy") {
				t.Fatalf("the log does not say the egress policy refused the request:\n%s", logs.String())
			}
		})
	}
}

// mustSSOProvider registers an external provider at issuer for org B. The
// management API reads the issuer's discovery document first; when it
// refuses the issuer (it reached nothing internal, and says so without what
// was answered), the provider is stored directly, as if the issuer's name had
// pointed elsewhere when it was registered.
func (ti *testIDP) mustSSOProvider(t *testing.T, issuer string, policy platform.LoginPolicy, hits *atomic.Int32) string {
	t.Helper()
	m := ti.mgmtClient(t, true)
	code, x := m.do(http.MethodPost, "/organizations/"+orgB+"/identity-providers", map[string]any{
		"name": "Example SSO", "issuer": issuer, "clientId": extClientID, "clientSecret": extSecret})
	if code == http.StatusCreated {
		if code, body := m.do(http.MethodPut, "/organizations/"+orgB+"/login-policy", policy); code != http.StatusOK {
			t.Fatalf("policy = %d %v", code, body)
		}
		return x["id"].(string)
	}
	detail := fmt.Sprint(x["error"])
	if code != http.StatusBadRequest || !strings.Contains(detail, "egress policy") || strings.Contains(detail, "instance credentials") ||
		strings.Contains(detail, "127.0.0.2") || hits.Load() != 0 {
		t.Fatalf("registering an internal issuer answered %d %v (internal hits %d)", code, x, hits.Load())
	}
	ctx := context.Background()
	id := "idp-" + randomToken()[:8]
	if err := ti.p.RegisterExternalIDP(ctx, &platform.ExternalIDP{ID: id, OrgID: orgB, Name: "Example SSO", Issuer: issuer,
		ClientID: extClientID, Scopes: []string{"openid", "email"}, CreatedAt: time.Now()}, extSecret, false); err != nil {
		t.Fatal(err)
	}
	policy.OrgID, policy.UpdatedAt = orgB, time.Now()
	if err := ti.st.PutLoginPolicy(ctx, &policy); err != nil {
		t.Fatal(err)
	}
	return id
}
