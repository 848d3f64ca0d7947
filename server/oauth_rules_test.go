package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
)

// rawAuthorization is one authorization request sent by hand to the
// provider's authorize endpoint, parameter by parameter, in a browser of its
// own (cookies, no redirects followed).
type rawAuthorization struct {
	t        *testing.T
	m        *Main
	c        *http.Client
	verifier string
	query    url.Values
}

func newRawAuthorization(t *testing.T, m *Main, email string) *rawAuthorization {
	verifier := oauth2.GenerateVerifier()
	sum := sha256.Sum256([]byte(verifier))
	jar, _ := cookiejar.New(nil)
	return &rawAuthorization{t: t, m: m, verifier: verifier,
		c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		query: url.Values{"response_type": {"code"}, "client_id": {m.Config.ConsoleClientID},
			"redirect_uri": {m.Config.ConsoleURL + "/callback"}, "scope": {"openid profile email"},
			"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
			"state": {"state-" + email}, "nonce": {"nonce-" + email}, "login_hint": {email}}}
}

// do sends one request and answers the status, Location and body.
func (a *rawAuthorization) do(req *http.Request) (int, string, string) {
	a.t.Helper()
	resp, err := a.c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func (a *rawAuthorization) get(u string) (int, string, string) {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return a.do(req)
}

func (a *rawAuthorization) post(u string, form url.Values) (int, string, string) {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return a.do(req)
}

var hiddenField = regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`)

// signIn opens the authorize URL, follows it to the sign-in page, which
// must show the login_hint, and posts password. It answers the status and
// Location of the form post.
func (a *rawAuthorization) signIn(password string) (int, string) {
	a.t.Helper()
	code, loc, _ := a.get(a.m.Config.IssuerURL + idp.PathAuthorize + "?" + a.query.Encode())
	if code != http.StatusFound || !strings.Contains(loc, idp.PathLogin) {
		a.t.Fatalf("authorize = %d to %q, want the sign-in page", code, loc)
	}
	if !strings.HasPrefix(loc, "http") {
		loc = a.m.Config.IssuerURL + loc
	}
	code, _, page := a.get(loc)
	email := a.query.Get("login_hint")
	if code != 200 || !strings.Contains(page, `value="`+email+`"`) {
		a.t.Fatalf("sign-in page = %d and does not show the login_hint %s:\n%.1500s", code, email, page)
	}
	form := url.Values{"email": {email}, "password": {password}}
	for _, f := range hiddenField.FindAllStringSubmatch(page, -1) {
		form.Set(f[1], f[2])
	}
	code, loc, _ = a.post(a.m.Config.IssuerURL+idp.PathLogin, form)
	if code/100 == 3 && !strings.HasPrefix(loc, "http") {
		loc = a.m.Config.IssuerURL + loc
	}
	// The provider's own callback turns the finished request into the code.
	for i := 0; i < 3 && code/100 == 3 && strings.HasPrefix(loc, a.m.Config.IssuerURL); i++ {
		code, loc, _ = a.get(loc)
	}
	return code, loc
}

// code signs in with the right password and answers the code delivered to
// the redirect URI with the request's state.
func (a *rawAuthorization) code() string {
	a.t.Helper()
	status, loc := a.signIn(DemoPassword)
	u, err := url.Parse(loc)
	if status/100 != 3 || err != nil || !strings.HasPrefix(loc, a.query.Get("redirect_uri")+"?") {
		a.t.Fatalf("after the password: %d to %q, want the redirect URI", status, loc)
	}
	if u.Query().Get("state") != a.query.Get("state") || u.Query().Get("code") == "" {
		a.t.Fatalf("callback %q lacks the code or the state %q", loc, a.query.Get("state"))
	}
	return u.Query().Get("code")
}

// exchange posts the token request's form fields and answers the status and
// the JSON answer.
func (a *rawAuthorization) exchange(form url.Values) (int, map[string]any) {
	a.t.Helper()
	code, _, body := a.post(a.m.Config.IssuerURL+idp.PathToken, form)
	out := map[string]any{}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		a.t.Fatalf("token endpoint answered %d and no JSON: %.300s", code, body)
	}
	return code, out
}

// tokenForm is the token request of R4.3-token for code, with change applied.
func (a *rawAuthorization) tokenForm(code string, change func(url.Values)) url.Values {
	f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {a.verifier},
		"client_id": {a.query.Get("client_id")}, "redirect_uri": {a.query.Get("redirect_uri")}}
	if change != nil {
		change(f)
	}
	return f
}

// The identity provider's authorization code flow, sent field by field:
// the authorize endpoint takes response_type=code, client_id, redirect_uri,
// scope, code_challenge with code_challenge_method=S256, state, nonce and
// login_hint (its sign-in page shows the hint); it refuses a request
// without an S256 challenge, and a wrong password gets no code. The token
// endpoint takes grant_type=authorization_code, code, code_verifier,
// client_id and redirect_uri and answers an id_token JWT the provider's
// JWKS verifies, with the request's nonce; a wrong or missing verifier,
// another redirect URI or client, and a code used once already get no
// tokens.
//
// spec: R1-idp, R4.3-authorize, R4.3-token
func TestAuthorizationCodeFlowByHand(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := context.Background()

	t.Run("ErrNoS256Challenge", func(t *testing.T) {
		for name, change := range map[string]func(url.Values){
			"NoChallenge": func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") },
			"Plain":       func(q url.Values) { q.Set("code_challenge_method", "plain") },
		} {
			a := newRawAuthorization(t, m, "alice@acme.example")
			change(a.query)
			code, loc, _ := a.get(m.Config.IssuerURL + idp.PathAuthorize + "?" + a.query.Encode())
			if strings.Contains(loc, idp.PathLogin) || (code/100 == 3 && !strings.Contains(loc, "error=")) || code == 200 {
				t.Errorf("%s: authorize = %d to %q; want a refusal, not the sign-in page", name, code, loc)
			}
		}
	})
	t.Run("ErrWrongPassword", func(t *testing.T) {
		a := newRawAuthorization(t, m, "alice@acme.example")
		if code, loc := a.signIn("not-the-password"); code != http.StatusUnauthorized || strings.Contains(loc, "code=") {
			t.Fatalf("wrong password = %d to %q, want 401 and no code", code, loc)
		}
	})
	for name, change := range map[string]func(url.Values){
		"ErrWrongVerifier":    func(f url.Values) { f.Set("code_verifier", strings.Repeat("w", 43)) },
		"ErrNoVerifier":       func(f url.Values) { f.Del("code_verifier") },
		"ErrOtherRedirectURI": func(f url.Values) { f.Set("redirect_uri", m.Config.ConsoleURL+"/dashboard") },
		"ErrOtherClient":      func(f url.Values) { f.Set("client_id", m.Config.InstanceClientID) },
	} {
		t.Run(name, func(t *testing.T) {
			a := newRawAuthorization(t, m, "bob@acme.example")
			if code, out := a.exchange(a.tokenForm(a.code(), change)); code != http.StatusBadRequest && code != http.StatusUnauthorized || out["id_token"] != nil || out["access_token"] != nil {
				t.Fatalf("token = %d %v, want an OAuth error and no tokens", code, out)
			}
		})
	}

	a := newRawAuthorization(t, m, "alice@acme.example")
	code := a.code()
	status, out := a.exchange(a.tokenForm(code, nil))
	raw, _ := out["id_token"].(string)
	if status != 200 || raw == "" || out["access_token"] == nil || !strings.EqualFold(out["token_type"].(string), "bearer") {
		t.Fatalf("token = %d %v, want tokens with an id_token", status, out)
	}
	prov, err := gooidc.NewProvider(ctx, m.Config.IssuerURL)
	if err != nil {
		t.Fatal(err)
	}
	idt, err := prov.Verifier(&gooidc.Config{ClientID: m.Config.ConsoleClientID}).Verify(ctx, raw)
	if err != nil {
		t.Fatalf("the id_token does not verify with the provider's JWKS: %v", err)
	}
	var claims struct {
		Email string `json:"email"`
	}
	_ = idt.Claims(&claims)
	if idt.Nonce != a.query.Get("nonce") || claims.Email != "alice@acme.example" || idt.Subject == "" {
		t.Fatalf("id_token nonce %q email %q sub %q", idt.Nonce, claims.Email, idt.Subject)
	}
	if status, out := a.exchange(a.tokenForm(code, nil)); status == 200 || out["id_token"] != nil {
		t.Fatalf("the code used a second time = %d %v", status, out)
	}
}
