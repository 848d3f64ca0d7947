package idp

import (
	"context"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/domains/dnstest"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The client metadata documents of the tests are served by an HTTPS server
// on 127.0.0.1 under the name example.com (its certificate's), which a DNS
// server of the test resolves; the provider's egress policy trusts the
// server's certificate and, unless a test says otherwise, allows 127.0.0.1.

// docCustomer is the customer whose verified domain example.com serves the
// documents; its organization is orgB (bob's).
const (
	docCustomer = "cust-docs"
	docDomain   = "example.com"
)

// docAnswer is what the document server answers at a path.
type docAnswer struct {
	status       int
	contentType  string
	cacheControl string
	location     string
	body         string
}

// docHost serves documents and counts the requests of each path.
type docHost struct {
	srv  *httptest.Server
	dns  *dnstest.Server
	base string // https://example.com:port
	mu   sync.Mutex
	docs map[string]docAnswer
	hits map[string]int
}

func newDocHost(t *testing.T) *docHost {
	t.Helper()
	h := &docHost{docs: map[string]docAnswer{}, hits: map[string]int{}}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.hits[r.URL.Path]++
		a, ok := h.docs[r.URL.Path]
		h.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		if a.contentType != "" {
			w.Header().Set("Content-Type", a.contentType)
		}
		if a.cacheControl != "" {
			w.Header().Set("Cache-Control", a.cacheControl)
		}
		if a.location != "" {
			w.Header().Set("Location", a.location)
		}
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(h.srv.Close)
	h.dns = dnstest.Start(t)
	h.dns.SetA(docDomain, netip.MustParseAddr("127.0.0.1"))
	_, port, _ := net.SplitHostPort(h.srv.Listener.Addr().String())
	h.base = "https://" + docDomain + ":" + port
	return h
}

// url is the client id of the document at path.
func (h *docHost) url(path string) string { return h.base + path }

// serve answers a at path.
func (h *docHost) serve(path string, a docAnswer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a.status == 0 {
		a.status = http.StatusOK
	}
	h.docs[path] = a
}

// serveDoc answers a valid document at path: a public client redirecting
// to appRedirect, with extra members replacing its own.
func (h *docHost) serveDoc(path, cacheControl string, extra ...string) {
	members := map[string]string{"client_id": `"` + h.url(path) + `"`, "client_name": `"Doc Client"`,
		"redirect_uris": `["` + appRedirect + `"]`, "token_endpoint_auth_method": `"none"`,
		"client_uri": `"https://example.com/"`}
	for i := 0; i+1 < len(extra); i += 2 {
		members[extra[i]] = extra[i+1]
	}
	parts := make([]string, 0, len(members))
	for k, v := range members {
		if v != "" {
			parts = append(parts, `"`+k+`":`+v)
		}
	}
	h.serve(path, docAnswer{contentType: "application/json", cacheControl: cacheControl, body: "{" + strings.Join(parts, ",") + "}"})
}

func (h *docHost) hitsOf(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[path]
}

// policy is the provider's egress policy for h: its DNS, its certificate,
// and allow (nil: no internal address at all).
func (h *docHost) policy(allow ...string) egress.Policy {
	pool := x509.NewCertPool()
	pool.AddCert(h.srv.Certificate())
	p := egress.Policy{RootCAs: pool, Resolver: &net.Resolver{PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, h.dns.Addr)
		}}}
	for _, a := range allow {
		p.Allow = append(p.Allow, netip.MustParsePrefix(a))
	}
	return p
}

// docIDP is a provider whose customer docCustomer (organization orgB)
// holds example.com verified and has turned the documents on (unless
// off), its egress policy h's.
func docIDP(t *testing.T, h *docHost, policy egress.Policy, on bool) *testIDP {
	t.Helper()
	ti := mustIDP(t, func(c *Config) { c.Egress = policy })
	ctx, now := context.Background(), time.Now().UTC().Truncate(time.Second)
	if err := ti.st.CreateCustomer(ctx, &platform.Customer{ID: docCustomer, Name: "Docs", OrgID: orgB, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	claim := &store.DomainClaim{ID: "claim-docs", CustomerID: docCustomer, Domain: docDomain, Token: "t", CreatedBy: "test", CreatedAt: now}
	if err := ti.st.CreateDomainClaim(ctx, claim); err != nil {
		t.Fatal(err)
	}
	if err := ti.st.MarkDomainVerified(ctx, claim.ID, store.DomainDNS, now); err != nil {
		t.Fatal(err)
	}
	if err := ti.st.SetCustomerClientMetadataDocuments(ctx, docCustomer, on); err != nil {
		t.Fatal(err)
	}
	return ti
}

// docRP is a relying party whose client_id is clientID, asking for orgB's
// org scope (the organization of the client's customer) and scopes.
func (ti *testIDP) docRP(clientID string, scopes ...string) *rp {
	ti.t.Helper()
	r := ti.rp(append([]string{gooidc.ScopeOpenID, "email", ScopeOrgPrefix + orgB}, scopes...)...)
	r.cfg.ClientID = clientID
	prov, err := gooidc.NewProvider(r.ctx, ti.issuer)
	if err != nil {
		ti.t.Fatal(err)
	}
	r.verifier = prov.Verifier(&gooidc.Config{ClientID: clientID})
	return r
}

// refusedAuthorize asks to authorize r's client and expects the error page
// (no redirect anywhere), which says want.
func (ti *testIDP) refusedAuthorize(r *rp, want string, extra ...oauth2.AuthCodeOption) {
	ti.t.Helper()
	resp, body := ti.browser().get(r.authURL(newFlow(), extra...))
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" || !strings.Contains(body, want) {
		ti.t.Fatalf("authorize: %d Location=%q, want 400 with %q:\n%.1500s", resp.StatusCode, resp.Header.Get("Location"), want, body)
	}
}

// noClientRow fails when clientID was recorded as an application.
func (ti *testIDP) noClientRow(clientID string) {
	ti.t.Helper()
	if _, err := ti.st.ApplicationByClientID(context.Background(), clientID); platform.ErrorCode(err) != platform.ENOTFOUND {
		ti.t.Fatalf("client %s was recorded (err %v)", clientID, err)
	}
}

// docPush are the parameters of a pushed request of a document's client:
// the code flow with PKCE, for orgB.
func docPush() url.Values {
	f := newFlow()
	return url.Values{"response_type": {"code"}, "redirect_uri": {appRedirect}, "scope": {"openid " + ScopeOrgPrefix + orgB},
		"code_challenge": {s256(f.verifier)}, "code_challenge_method": {"S256"}, "state": {f.state}}
}

// pushRaw pushes an authorization request as clientID (public) and returns
// the status and answer.
func (ti *testIDP) pushRaw(clientID string, params url.Values) (int, string) {
	ti.t.Helper()
	params.Set("client_id", clientID)
	resp, err := http.PostForm(ti.issuer+PathPAR, params)
	if err != nil {
		ti.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
