package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/idp"
)

// brandAcme gives Acme Construction a display name, a colour and a logo
// through the admin API, as its owner.
func brandAcme(t *testing.T, m *Main) {
	t.Helper()
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPut, "/customers/"+DemoAcmeCustomerID+"/branding",
		map[string]any{"displayName": "Acme Construction", "primaryColor": "#0b5d1e"}); code != http.StatusOK {
		t.Fatalf("branding = %d %v", code, body)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 240, 60))
	for x := 0; x < 240; x++ {
		for y := 0; y < 60; y++ {
			img.Set(x, y, color.NRGBA{11, 93, 30, uint8(255 * ((x / 20) % 2))})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPut, m.Config.ConsoleURL+"/api/v1/customers/"+DemoAcmeCustomerID+"/branding/logo", &b)
	req.Header.Set("Authorization", "Bearer "+owner.AccessToken)
	req.Header.Set("Content-Type", "image/png")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("logo = %d %s", resp.StatusCode, msg)
	}
}

// colorScheme emulates the system's light or dark scheme.
func colorScheme(scheme string) chromedp.Action {
	return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}})
}

// buttonColors reads the sign-in button's background and text colours.
func buttonColors(out *string) chromedp.Action {
	return chromedp.Evaluate(`(() => { const s = getComputedStyle(document.querySelector('#password').form.querySelector('button[type=submit]'));
		return s.backgroundColor + " / " + s.color; })()`, out)
}

// The sign-in page of a branded organization, reached through the console
// gateway (which names the organization once resolve-org knows it), shows
// its logo and colour, axe-clean in the light and the dark scheme and at
// 390 px; an unbranded organization's page has the default look.
func TestBrowserBrandedSignIn(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	brandAcme(t, m)
	ctx := mustBrowser(t)
	var colors, alt string
	var loaded bool
	run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/", "bob@acme.example"), chromedp.WaitVisible(`#password`, chromedp.ByID),
		waitTrue(`(() => { const i = document.getElementById("brand-logo"); return !!i && i.complete && i.naturalWidth > 0; })()`),
		chromedp.Evaluate(`document.getElementById("brand-logo").naturalWidth === 240`, &loaded),
		chromedp.Evaluate(`document.getElementById("brand-logo").alt`, &alt), buttonColors(&colors),
		shot(t, ctx, "branded-sign-in"))
	if !loaded || alt != "Acme Construction" || colors != "rgb(11, 93, 30) / rgb(255, 255, 255)" {
		t.Errorf("branded page: logo loaded %v, alt %q, button %q", loaded, alt, colors)
	}
	axeCheck(t, ctx, axe, "branded sign-in (light)")
	run(t, ctx, colorScheme("dark"), buttonColors(&colors), shot(t, ctx, "branded-sign-in-dark"))
	if colors != "rgb(11, 93, 30) / rgb(255, 255, 255)" {
		t.Errorf("dark scheme button: %q", colors)
	}
	axeCheck(t, ctx, axe, "branded sign-in (dark)")
	var overflow bool
	run(t, ctx, colorScheme("light"), chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(`#brand-logo`, chromedp.ByID),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow), shot(t, ctx, "branded-sign-in-390"))
	if overflow {
		t.Error("the branded sign-in page is wider than 390 px")
	}
	axeCheck(t, ctx, axe, "branded sign-in (390 px)")

	// Globex set no branding: the default look.
	var brand bool
	run(t, ctx, chromedp.EmulateViewport(1280, 900), gatewayEmail(m.Config.ConsoleURL+"/", "carol@globex.example"),
		chromedp.WaitVisible(`#password`, chromedp.ByID), chromedp.Evaluate(`!!document.getElementById("brand")`, &brand), buttonColors(&colors))
	if brand || colors != "rgb(29, 78, 216) / rgb(255, 255, 255)" {
		t.Errorf("unbranded page: brand block %v, button %q", brand, colors)
	}
	axeCheck(t, ctx, axe, "unbranded sign-in")
}

// The account page lists this browser and another one (signed in with
// another client), and signs the other one out: its next visit is asked to
// sign in again, this browser stays signed in.
func TestBrowserAccountEndsOtherSession(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	jar, _ := cookiejar.New(nil)
	demoLoginIn(t, m, jar, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	other := &http.Client{Jar: jar}
	accountOf := func() string {
		resp, err := other.Get(m.Config.IssuerURL + idp.PathAccount)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if !strings.Contains(accountOf(), "bob@acme.example") {
		t.Fatal("the other browser is not signed in")
	}
	appSignIn(t, ctx, m, "bob@acme.example")
	var sessions, notice string
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathAccount), waitShows(`#sessions`, "Another browser"),
		textOf(`#sessions`, &sessions), shot(t, ctx, "account-sessions"))
	if !strings.Contains(sessions, "This browser: Chrome on Linux, network 127.0.0.0/24") ||
		!strings.Contains(sessions, "Another browser: Unknown browser on unknown system") {
		t.Errorf("sessions: %q", sessions)
	}
	axeCheck(t, ctx, axe, "account sessions")
	run(t, ctx, clickText("Sign out of Unknown browser on unknown system"), waitShows(`#account-notice`, "signed out"),
		textOf(`#account-notice`, &notice), textOf(`#sessions`, &sessions))
	if strings.Contains(sessions, "Another browser") {
		t.Errorf("the other browser is still listed: %q", sessions)
	}
	if strings.Contains(accountOf(), "bob@acme.example") {
		t.Error("the other browser is still signed in")
	}
	axeCheck(t, ctx, axe, fmt.Sprintf("account after %q", notice))
}

// The owner brands the customer in the console app: a colour that cannot
// carry readable text is flagged while it is typed (and cannot be saved),
// a readable one is saved with the sender; a logo is previewed, uploaded
// and shown from the identity provider.
func TestBrowserConsoleAppBranding(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=branding", "Acme Construction"), waitShows(`main`, "Look"))
	axeCheck(t, ctx, axe, "branding")
	var result string
	var disabled bool
	run(t, ctx, fill("Primary colour", "#777777"), waitShows(`[data-testid="contrast-result"]`, "too little"),
		chromedp.Evaluate(`[...document.querySelectorAll("button")].find(b => b.textContent.trim() === "Save branding").disabled`, &disabled))
	if !disabled {
		t.Error("a colour without readable text can be saved")
	}
	run(t, ctx, fill("Primary colour", "#0b5d1e"), waitShows(`[data-testid="contrast-result"]`, "readable"),
		textOf(`[data-testid="contrast-result"]`, &result), fill("Display name", "Acme Construction"),
		fill("Sender name", "Acme Support"), fill("Reply-To", "help@acme.example"), press("Save branding"),
		waitShows(`[data-testid="saved"]`, "Saved"))
	if !strings.Contains(result, "White text on this colour: 8.08:1") {
		t.Errorf("contrast result: %q", result)
	}
	b, err := m.Store.CustomerBranding(t.Context(), DemoAcmeCustomerID)
	if err != nil || b.PrimaryColor != "#0b5d1e" || b.MailFromName != "Acme Support" || b.MailReplyTo != "help@acme.example" {
		t.Fatalf("stored branding: %+v %v", b, err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 120, 40))
	for x := 0; x < 120; x++ {
		img.Set(x, x%40, color.NRGBA{11, 93, 30, 255})
	}
	file := t.TempDir() + "/logo.png"
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.SetUploadFiles(`[data-testid="logo-file"]`, []string{file}, chromedp.ByQuery),
		waitTrue(`!!document.querySelector('[data-testid="logo-preview"]')`), press("Upload logo"),
		waitTrue(`(() => { const i = document.querySelector('[data-testid="logo-current"]'); return !!i && i.complete && i.naturalWidth === 120; })()`),
		shot(t, ctx, "app-branding"))
	axeCheck(t, ctx, axe, "branding with a logo")
	if b, err := m.Store.CustomerBranding(t.Context(), DemoAcmeCustomerID); err != nil || b.LogoSHA256 == "" {
		t.Fatalf("stored logo: %+v %v", b, err)
	}
}
