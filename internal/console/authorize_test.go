package console

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/platform"
)

// spec: R5.4-strip, R5.4-append, R5.4-standard
func TestSanitizeScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		requested, org, idp string
		want                []string
	}{
		{"OKStandard", "openid profile email offline_access", "org1", "", []string{"openid", "profile", "email", "offline_access", scopeOrgPrefix + "org1"}},
		{"StripPrivileged", "openid urn:idp:iam:org:id:evil urn:idp:iam:user:resourceowner urn:idp:iam:org:idp:id:x email", "org1", "",
			[]string{"openid", "email", scopeOrgPrefix + "org1"}},
		{"StripCaseTricks", "openid urn:idp:iam:org:id:a%20b", "org1", "", []string{"openid", scopeOrgPrefix + "org1"}},
		{"AppendIDPOnlyForSSO", "openid", "org1", "idp9", []string{"openid", scopeOrgPrefix + "org1", scopeIDPPrefix + "idp9"}},
		{"NoOrgNoIDP", "openid email", "", "idp9", []string{"openid", "email"}},
		{"AddOpenID", "email", "org1", "", []string{"openid", "email", scopeOrgPrefix + "org1"}},
		{"DropUnknownAndDuplicates", "openid openid admin email email write:all", "org1", "", []string{"openid", "email", scopeOrgPrefix + "org1"}},
		{"RefuseBadIDs", "openid", "org 1", "x y", []string{"openid"}},
		{"RefuseInjectedOrg", "openid", "org1 urn:idp:iam:org:idp:id:evil", "", []string{"openid"}},
		{"Empty", "", "org1", "", []string{"openid", scopeOrgPrefix + "org1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SanitizeScopes(tc.requested, tc.org, tc.idp)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The console's own flow takes its scopes from its configuration, whatever
// a request says.
// spec: R5.4-own
func TestOwnScopes(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff([]string{"openid", "profile", "email", scopeResourceOwner}, OwnScopes("", "")); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"openid", "profile", "email", scopeResourceOwner, scopeOrgPrefix + "o", scopeIDPPrefix + "i"},
		OwnScopes("o", "i")); diff != "" {
		t.Error(diff)
	}
}

const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

func TestBuildAuthorizeURL(t *testing.T) {
	t.Parallel()
	reg := []string{"https://t.example/auth/callback", "https://t.example/3/auth/callback"}
	ok := AuthorizeParams{ClientID: "c", RedirectURI: reg[1], Scopes: []string{"openid"}, CodeChallenge: challenge,
		State: "s", Nonce: "n", LoginHint: "a@b.example"}
	u, err := BuildAuthorizeURL("https://id.example/oauth/v2/authorize", ok, reg)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _ := url.Parse(u)
	q := parsed.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" || q.Get("redirect_uri") != reg[1] ||
		q.Get("login_hint") != "a@b.example" || q.Get("state") != "s" || q.Get("nonce") != "n" {
		t.Fatalf("url = %s", u)
	}
	// spec: R4.1-rc-never, R5.1-pkce
	for name, mutate := range map[string]func(*AuthorizeParams){
		"ErrUnregisteredRedirect": func(p *AuthorizeParams) { p.RedirectURI = "https://evil.example/auth/callback" },
		"ErrMissingRedirect":      func(p *AuthorizeParams) { p.RedirectURI = "" },
		"ErrPlainChallenge":       func(p *AuthorizeParams) { p.CodeChallenge = "plain-verifier" },
		"ErrMissingChallenge":     func(p *AuthorizeParams) { p.CodeChallenge = "" },
		"ErrMissingState":         func(p *AuthorizeParams) { p.State = "" },
		"ErrMissingNonce":         func(p *AuthorizeParams) { p.Nonce = "" },
		"ErrScopeWithSpace":       func(p *AuthorizeParams) { p.Scopes = []string{"openid urn:idp:iam:org:id:x"} },
	} {
		t.Run(name, func(t *testing.T) {
			p := ok
			mutate(&p)
			if u, err := BuildAuthorizeURL("https://id.example/oauth/v2/authorize", p, reg); err == nil {
				t.Fatalf("built %s", u)
			}
		})
	}
}

// spec: R4.1-rc3, R9-callbacks
func TestRegisteredRedirects(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff([]string{"https://t.example/auth/callback", "https://t.example/3/auth/callback"},
		RegisteredRedirects("https://t.example/auth/callback")); diff != "" {
		t.Error(diff)
	}
	if got := RegisteredRedirects(""); got != nil {
		t.Errorf("legacy empty URI registers %v", got)
	}
}

// No privileged scope ever survives sanitization except the two the console
// appends from valid ids.
func FuzzSanitizeScopes(f *testing.F) {
	f.Add("openid urn:idp:iam:org:id:x email", "org1", "idp1")
	f.Add("urn:idp:iam:user:resourceowner offline_access", "", "")
	f.Add("openid\turn:idp:iam:org:idp:id:y\nprofile", "o", "")
	f.Fuzz(func(t *testing.T, requested, org, idp string) {
		got := SanitizeScopes(requested, org, idp)
		if got[0] != "openid" {
			t.Fatalf("openid not first: %v", got)
		}
		var privileged []string
		for _, s := range got {
			if strings.ContainsAny(s, " \t\r\n") || s == "" {
				t.Fatalf("scope %q would split or vanish", s)
			}
			if strings.HasPrefix(s, scopePrivilegedPrefix) {
				privileged = append(privileged, s)
			} else if !slices.Contains(standardScopes, s) {
				t.Fatalf("non-standard scope %q passed", s)
			}
		}
		var want []string
		if platform.ValidID(org) {
			want = append(want, scopeOrgPrefix+org)
			if platform.ValidID(idp) {
				want = append(want, scopeIDPPrefix+idp)
			}
		}
		if !slices.Equal(privileged, want) {
			t.Fatalf("privileged scopes %v, want only %v", privileged, want)
		}
	})
}

// The builder never produces a URL whose redirect_uri is not registered, and
// always an S256 challenge.
func FuzzBuildAuthorizeURL(f *testing.F) {
	f.Add("https://t.example/auth/callback", "https://t.example/auth/callback", challenge, "s", "n", "openid")
	f.Add("https://t.example/auth/callback", "https://t.example/auth/callback?x=1", challenge, "s", "n", "openid")
	f.Add("", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, registered, redirect, ch, state, nonce, scope string) {
		reg := RegisteredRedirects(registered)
		u, err := BuildAuthorizeURL("https://id.example/oauth/v2/authorize", AuthorizeParams{ClientID: "c", RedirectURI: redirect,
			Scopes: SanitizeScopes(scope, "org", ""), CodeChallenge: ch, State: state, Nonce: nonce}, reg)
		if err != nil {
			return
		}
		parsed, perr := url.Parse(u)
		if perr != nil {
			t.Fatalf("built an unparsable URL %q", u)
		}
		q := parsed.Query()
		if !slices.Contains(reg, q.Get("redirect_uri")) || q.Get("redirect_uri") != redirect {
			t.Fatalf("redirect_uri %q is not registered (%v)", q.Get("redirect_uri"), reg)
		}
		if q.Get("code_challenge_method") != "S256" || !validChallenge(q.Get("code_challenge")) {
			t.Fatalf("challenge %q method %q", q.Get("code_challenge"), q.Get("code_challenge_method"))
		}
		if parsed.Host != "id.example" || len(q["redirect_uri"]) != 1 || len(q["client_id"]) != 1 {
			t.Fatalf("URL was smuggled: %s", u)
		}
	})
}
