package idp

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func withConsole(c *Config) {
	c.ConsoleURL, c.ConsoleClientID = "https://console.example", "console-portal"
}

// The account page leads back to the console page the user came from and
// signs out to the console; the way back is kept for the page's own posts.
func TestAccountFrame(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, withConsole)
	b := ti.signedIn()
	_, page := b.get(ti.issuer + PathAccount + "?back=" + url.QueryEscape("/dashboard/customers/c1?tab=users"))
	page = html.UnescapeString(page)
	if !strings.Contains(page, `id="back-to-console"`) || !strings.Contains(page, `href="https://console.example/dashboard/customers/c1?tab=users"`) {
		t.Fatalf("no way back to the console:\n%.3000s", page)
	}
	for _, want := range []string{`id="account-sign-out"`, `action="/oidc/v1/end_session"`, `name="client_id" value="console-portal"`,
		`name="post_logout_redirect_uri" value="https://console.example/"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the sign-out form lacks %s", want)
		}
	}
	// after a post (here: a reload without the parameter) the way back is kept
	_, page = b.get(ti.issuer + PathAccount)
	if !strings.Contains(html.UnescapeString(page), `href="https://console.example/dashboard/customers/c1?tab=users"`) {
		t.Fatal("the way back was forgotten")
	}
	// the sign-out form ends the session (posted without the console's
	// client, which this provider does not register)
	resp, _ := b.post(ti.issuer+"/oidc/v1/end_session", url.Values{"csrf": {extractField(page, "csrf")}})
	if resp.StatusCode >= 400 {
		t.Fatalf("sign-out: %d", resp.StatusCode)
	}
	if _, page = b.get(ti.issuer + PathAccount); !strings.Contains(page, "Sign in first") {
		t.Fatal("still signed in after the account page's sign-out")
	}
}

// Without a configured console, or when the user did not come from it,
// there is no way back to offer; signing out is still there.
func TestAccountFrameWithoutConsole(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	b := ti.signedIn()
	_, page := b.get(ti.issuer + PathAccount + "?back=/dashboard")
	if strings.Contains(page, `id="back-to-console"`) || strings.Contains(page, "post_logout_redirect_uri") || !strings.Contains(page, `id="account-sign-out"`) {
		t.Fatalf("account page without a console:\n%.2000s", page)
	}
}

// back names a path of the console only: another host, a scheme-relative
// address, a backslash or a control character leads nowhere, so the
// account page cannot be made to send its user elsewhere.
//
// attack: account-back-redirect
func TestAttackAccountBackRedirect(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, withConsole)
	b := ti.signedIn()
	for _, back := range []string{"https://evil.example/x", "//evil.example/x", "/\\evil.example", "\\\\evil.example",
		"/x\r\nLocation: https://evil.example", "evil.example", "/" + strings.Repeat("a", accountBackMax)} {
		_, page := b.get(ti.issuer + PathAccount + "?back=" + url.QueryEscape(back))
		if strings.Contains(page, "evil.example") || strings.Contains(page, `id="back-to-console"`) {
			t.Fatalf("back=%q offered:\n%.2000s", back, page)
		}
	}
	for _, ok := range []string{"/", "/portal", "/dashboard/users?after=x&prev=_"} {
		if got, valid := cleanBackPath(ok); !valid || got != ok {
			t.Errorf("%q refused", ok)
		}
	}
}

// A passkey added without a name is named for its provider when its AAGUID
// is known, else "Passkey"; removing one asks first, naming it, and keeps
// it until the confirmation is posted.
func TestPasskeyNamesAndConfirmedRemoval(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	icloud := newSoftKey(ti, userAlice)
	id := uuid.MustParse("fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
	copy(icloud.auth.Aaguid[:], id[:])
	if resp, body := ti.enrol(b, icloud, ""); resp.StatusCode != 200 {
		t.Fatalf("enrol without a name: %d\n%.500s", resp.StatusCode, body)
	}
	other := newSoftKey(ti, userAlice)
	if resp, _ := ti.enrol(b, other, "  "); resp.StatusCode != 200 {
		t.Fatalf("enrol with a blank name: %d", resp.StatusCode)
	}
	keys := ti.passkeys(userAlice)
	names := map[string]bool{}
	for _, k := range keys {
		names[k.Name] = true
	}
	if len(keys) != 2 || !names["iCloud Keychain"] || !names["Passkey"] {
		t.Fatalf("passkey names: %v", names)
	}
	_, page := b.get(ti.issuer + PathAccount)
	if !strings.Contains(page, `id="passkey-name-hint"`) || strings.Contains(page, `id="passkey-name" name="name" maxlength="64" required`) {
		t.Fatal("the name field is still required")
	}
	var icloudID string
	for _, k := range keys {
		if k.Name == "iCloud Keychain" {
			icloudID = k.ID
		}
	}
	resp, page := b.submitForm(ti.issuer+PathAccountPasskeyRemove, page, "id", icloudID)
	if resp.StatusCode != 200 || !strings.Contains(page, `id="passkey-remove"`) || !strings.Contains(page, "iCloud Keychain") ||
		!strings.Contains(page, `href="/ui/account#passkeys"`) || len(ti.passkeys(userAlice)) != 2 {
		t.Fatalf("remove before the confirmation: %d\n%.1500s", resp.StatusCode, page)
	}
	if resp, _ = b.submitForm(ti.issuer+PathAccountPasskeyRemove, page); resp.StatusCode != 200 {
		t.Fatalf("confirmed removal: %d", resp.StatusCode)
	}
	if left := ti.passkeys(userAlice); len(left) != 1 || left[0].Name != "Passkey" {
		t.Fatalf("after the confirmed removal: %+v", left)
	}
}
