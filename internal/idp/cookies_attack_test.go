package idp

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store/storetest"
)

// mustTLSIDP is mustIDP with an https issuer, served over TLS.
func mustTLSIDP(t *testing.T) *testIDP {
	t.Helper()
	st := storetest.New(t)
	srv := httptest.NewUnstartedServer(nil)
	issuer := "https://" + srv.Listener.Addr().String()
	clock := &testClock{}
	p, err := New(context.Background(), Config{Issuer: issuer, AdminOrgID: orgA, Password: fastHash, Now: clock.now,
		SecretsKey: randomBytes(32), Egress: egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}, st)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = p.Handler()
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(p.WaitBackground)
	ti := &testIDP{t: t, p: p, st: st, srv: srv, issuer: issuer, clock: clock}
	ti.seed()
	return ti
}

// setCookies records every Set-Cookie a client is sent.
type setCookies struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen []*http.Cookie
}

func (s *setCookies) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(r)
	if err == nil {
		s.mu.Lock()
		s.seen = append(s.seen, resp.Cookies()...)
		s.mu.Unlock()
	}
	return resp, err
}

// Without the __Host- prefix under https, a cookie of the provider's could
// be set or shadowed by a sibling subdomain or a plain-HTTP answer (session
// fixation of the login binding, the CSRF cookie or the session). Under an
// https issuer every cookie the provider sets (login binding, CSRF,
// session, and the session's removal at sign-out) is named __Host-…,
// Secure, Path=/, without Domain, and a whole sign-in and sign-out works
// with them; the plain names are neither set nor read.
// attack: cookies-without-host-prefix
func TestAttackCookiesWithoutHostPrefix(t *testing.T) {
	t.Parallel()
	ti := mustTLSIDP(t)
	const clientID, redirect = "https-app", "https://app.example/cb"
	if err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "app-https", ClientID: clientID, Name: "App",
		Kind: platform.AppPublic, RedirectURIs: []string{redirect}, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	r := ti.rp()
	r.cfg.ClientID, r.cfg.RedirectURL = clientID, redirect
	rec := &setCookies{base: ti.srv.Client().Transport}
	b := ti.browser()
	b.client.Transport = rec
	b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	codeOf := func(resp *http.Response) url.Values {
		t.Helper()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || !strings.HasPrefix(loc.String(), redirect) {
			t.Fatalf("no redirect to the client: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		return loc.Query()
	}
	f := newFlow()
	_, page := b.get(r.authURL(f))
	resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
	if _, err := r.exchange(f, codeOf(resp).Get("code")); err != nil {
		t.Fatalf("a sign-in with the prefixed cookies: %v", err)
	}

	// the session answers prompt=none under its prefixed name only: the
	// same value under the plain name (planted over HTTP or by a sibling
	// host) is not read
	session := ""
	for _, c := range rec.seen {
		if c.Name == "__Host-"+SessionCookie && c.Value != "" {
			session = c.Value
		}
	}
	for name, want := range map[string]string{"__Host-" + SessionCookie: "code", SessionCookie: "error"} {
		jar, _ := cookiejar.New(nil)
		u, _ := url.Parse(ti.issuer)
		jar.SetCookies(u, []*http.Cookie{{Name: name, Value: session, Path: "/", Secure: true}})
		c := &http.Client{Jar: jar, Transport: ti.srv.Client().Transport, CheckRedirect: b.client.CheckRedirect}
		resp, err := c.Get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if q := codeOf(resp); q.Get(want) == "" {
			t.Fatalf("prompt=none with the session under %s: %v, want %s", name, q, want)
		}
	}

	_, page = b.get(ti.issuer + PathEndSession)
	b.submitForm(ti.issuer+PathEndSession, page)
	names := map[string]bool{}
	for _, c := range rec.seen {
		names[c.Name] = true
		if !strings.HasPrefix(c.Name, "__Host-") || !c.Secure || c.Path != "/" || c.Domain != "" {
			t.Errorf("cookie %s: Secure=%v Path=%q Domain=%q; want __Host-, Secure, Path=/, no Domain", c.Name, c.Secure, c.Path, c.Domain)
		}
	}
	for _, want := range []string{bindingCookie, csrfCookie, SessionCookie} {
		if !names["__Host-"+want] {
			t.Errorf("__Host-%s was never set (set: %v)", want, names)
		}
	}
	if last := rec.seen[len(rec.seen)-1]; last.Name != "__Host-"+SessionCookie || last.MaxAge >= 0 {
		t.Errorf("sign-out did not remove the session cookie: last Set-Cookie %s MaxAge=%d", last.Name, last.MaxAge)
	}
}
