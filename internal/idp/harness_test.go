package idp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/testkit"
)

// Test fixtures: two organizations, users in each, one public application.
const (
	orgA        = "org-a"
	orgB        = "org-b"
	userAlice   = "user-alice"
	userBob     = "user-bob"
	alice       = "alice@a.example"
	bob         = "bob@b.example"
	goodPass    = "correct horse battery"
	appClientID = "app-client"
	appRedirect = "http://127.0.0.1:1/cb" // never dialled: the test client stops at it
)

// fastHash keeps tests quick; production uses DefaultPasswordParams.
var fastHash = PasswordParams{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

type testIDP struct {
	t      testing.TB
	p      *Provider
	st     *store.Store
	srv    *httptest.Server
	issuer string
	clock  *testClock
}

type testClock struct{ offset time.Duration }

func (c *testClock) now() time.Time { return time.Now().Add(c.offset) }

// mustIDP starts a provider on a loopback port with the fixtures seeded.
func mustIDP(t testing.TB, opts ...func(*Config)) *testIDP {
	t.Helper()
	ctx := context.Background()
	st := storetest.New(t)
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	clock := &testClock{}
	// the external providers of the tests listen on 127.0.0.1; nothing else internal is reachable
	cfg := Config{Issuer: issuer, AdminOrgID: orgA, Password: fastHash, Now: clock.now, SecretsKey: randomBytes(32),
		Egress: egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}
	for _, o := range opts {
		o(&cfg)
	}
	addSigningKey(t, st, cfg)
	p, err := New(ctx, cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = p.Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(p.WaitBackground) // before the store closes
	ti := &testIDP{t: t, p: p, st: st, srv: srv, issuer: issuer, clock: clock}
	ti.seed()
	return ti
}

// addSigningKey stores an RS256 key from the test binary's pool as the one
// New finds, in place of generating one; a provider of another algorithm
// makes its own.
func addSigningKey(t testing.TB, st *store.Store, cfg Config) {
	t.Helper()
	cfg = cfg.withDefaults()
	if cfg.SigningAlgorithm != string(jose.RS256) {
		return
	}
	now := cfg.Now()
	if err := st.CreateSigningKey(context.Background(), &store.SigningKey{ID: uuid.NewString(), Algorithm: cfg.SigningAlgorithm,
		PrivateKey: testkit.SigningKey(t), CreatedAt: now, NotBefore: now,
		ExpiresAt: now.Add(cfg.KeyRotation + cfg.KeyPublishAhead + max(cfg.IDTokenLifetime, cfg.AccessTokenLifetime))}); err != nil {
		t.Fatal(err)
	}
}

func (ti *testIDP) seed() {
	ctx, now := context.Background(), time.Now().UTC()
	hash, err := HashPassword(goodPass, ti.p.cfg.Password)
	if err != nil {
		ti.t.Fatal(err)
	}
	for _, o := range []string{orgA, orgB} {
		if err := ti.st.CreateOrganization(ctx, &platform.Organization{ID: o, Name: "Organization " + o, CreatedAt: now}); err != nil {
			ti.t.Fatal(err)
		}
	}
	for _, u := range []platform.User{
		{ID: userAlice, OrgID: orgA, Email: alice, Name: "Alice A"},
		{ID: userBob, OrgID: orgB, Email: bob, Name: "Bob B"},
	} {
		u.EmailVerified, u.PasswordHash, u.CreatedAt, u.UpdatedAt = true, hash, now, now
		if err := ti.st.CreateUser(ctx, &u); err != nil {
			ti.t.Fatal(err)
		}
	}
	if err := ti.st.CreateApplication(ctx, &platform.Application{AppID: "app-1", ClientID: appClientID, Name: "App",
		Kind: platform.AppPublic, RedirectURIs: []string{appRedirect}, CreatedAt: now}); err != nil {
		ti.t.Fatal(err)
	}
}

// browser is an HTTP client with cookies that stops at the client's redirect URI.
type browser struct {
	t      testing.TB
	client *http.Client
}

func (ti *testIDP) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: ti.t, client: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), appRedirect) {
				return http.ErrUseLastResponse
			}
			return nil
		}}}
}

// get follows redirects and returns the final response with its body read.
func (b *browser) get(u string) (*http.Response, string) {
	b.t.Helper()
	resp, err := b.client.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func (b *browser) post(u string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	resp, err := b.client.PostForm(u, form)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

var hiddenField = regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`)

var anyHidden = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)

// submitForm posts every hidden field of the (first) form on page to action,
// as a browser does when the form is submitted, and follows redirects.
func (b *browser) submitForm(action, page string, extra ...string) (*http.Response, string) {
	b.t.Helper()
	form := url.Values{}
	for _, m := range anyHidden.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	for i := 0; i+1 < len(extra); i += 2 {
		form.Set(extra[i], extra[i+1])
	}
	if len(form) == 0 {
		b.t.Fatalf("no form on page:\n%.500s", page)
	}
	return b.post(action, form)
}

// submitLogin posts the login form on page (as a browser would) and returns
// the response after redirects.
func (b *browser) submitLogin(issuer, page, email, password string) (*http.Response, string) {
	b.t.Helper()
	form := url.Values{"email": {email}, "password": {password}}
	for _, m := range hiddenField.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], m[2])
	}
	if form.Get("authRequestID") == "" {
		b.t.Fatalf("no login form on page:\n%s", page)
	}
	return b.post(issuer+PathLogin, form)
}

// callback returns the query of a redirect to the client, or fails.
func callback(t testing.TB, resp *http.Response) url.Values {
	t.Helper()
	loc := resp.Header.Get("Location")
	if !strings.HasPrefix(loc, appRedirect) {
		t.Fatalf("expected a redirect to the client, got %d Location=%q", resp.StatusCode, loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// rp is a real relying party: x/oauth2 for the flow, go-oidc for verification.
type rp struct {
	cfg      oauth2.Config
	verifier *gooidc.IDTokenVerifier
	ctx      context.Context
}

func (ti *testIDP) rp(scopes ...string) *rp {
	ti.t.Helper()
	ctx := gooidc.ClientContext(context.Background(), ti.srv.Client())
	prov, err := gooidc.NewProvider(ctx, ti.issuer)
	if err != nil {
		ti.t.Fatal(err)
	}
	if len(scopes) == 0 {
		scopes = []string{gooidc.ScopeOpenID, "profile", "email"}
	}
	return &rp{
		cfg:      oauth2.Config{ClientID: appClientID, Endpoint: prov.Endpoint(), RedirectURL: appRedirect, Scopes: scopes},
		verifier: prov.Verifier(&gooidc.Config{ClientID: appClientID}),
		ctx:      ctx,
	}
}

type flow struct {
	verifier, state, nonce string
}

func newFlow() flow {
	return flow{verifier: oauth2.GenerateVerifier(), state: randomToken(), nonce: randomToken()}
}

func (r *rp) authURL(f flow, extra ...oauth2.AuthCodeOption) string {
	opts := append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(f.verifier), gooidc.Nonce(f.nonce)}, extra...)
	return r.cfg.AuthCodeURL(f.state, opts...)
}

func (r *rp) exchange(f flow, code string) (*oauth2.Token, error) {
	return r.cfg.Exchange(r.ctx, code, oauth2.VerifierOption(f.verifier))
}

// login runs authorize → login form → callback and returns the code.
func (ti *testIDP) login(b *browser, r *rp, f flow, email, password string, extra ...oauth2.AuthCodeOption) string {
	ti.t.Helper()
	_, page := b.get(r.authURL(f, extra...))
	resp, body := b.submitLogin(ti.issuer, page, email, password)
	q := callback(ti.t, resp)
	if q.Get("error") != "" || q.Get("code") == "" {
		ti.t.Fatalf("login failed: %v\n%s", q, body)
	}
	if q.Get("state") != f.state {
		ti.t.Fatalf("state = %q, want %q", q.Get("state"), f.state)
	}
	return q.Get("code")
}

// loginTokens runs a full login and code exchange.
func (ti *testIDP) loginTokens(r *rp, email string, extra ...oauth2.AuthCodeOption) (*oauth2.Token, flow) {
	ti.t.Helper()
	f := newFlow()
	code := ti.login(ti.browser(), r, f, email, goodPass, extra...)
	tok, err := r.exchange(f, code)
	if err != nil {
		ti.t.Fatal(err)
	}
	return tok, f
}

func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func oauthErrorCode(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		return re.ErrorCode
	}
	return ""
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}
