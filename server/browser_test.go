package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

const chromiumPath = "/usr/bin/chromium"

// mustBrowser opens a fresh browser for the test: a browser context of its
// own (cookies, storage, cache and permissions apart from every other test's,
// as a new profile would have) in the test binary's one headless Chromium
// (Debian's package, never a downloaded browser), which the first test that
// needs it starts; starting Chromium costs more CPU than most tests' pages.
// CI installs it; elsewhere the test is skipped when it is missing.
func mustBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing; .ci/run installs the chromium package", chromiumPath)
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	if !inBrowserShard(t.Name()) {
		t.Skipf("another test run takes this browser test (BROWSER_SHARD=%s)", os.Getenv("BROWSER_SHARD"))
	}
	takeBrowserSlot(t)
	browser, err := sharedChromium()
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	// a browser context and its first tab, in a window of its own (headless
	// Chromium opens no tab in a new browser context without one)
	browserExec := cdp.WithExecutor(browser, chromedp.FromContext(browser).Browser)
	id, err := target.CreateBrowserContext().Do(browserExec)
	if err != nil {
		t.Fatalf("create a browser context: %v", err)
	}
	tab, err := target.CreateTarget("about:blank").WithBrowserContextID(id).WithNewWindow(true).Do(browserExec)
	if err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	ctx, cancelCtx := chromedp.NewContext(browser, chromedp.WithTargetID(tab))
	chromedp.FromContext(ctx).BrowserContextID = id // the test's further tabs open beside this one
	// a bound against hanging, not a measure of speed: CI runs both
	// databases' tests at once, on a machine other builds share
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx() // closes the tab
		_ = target.DisposeBrowserContext(id).Do(browserExec)
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("attach to the tab: %v", err)
	}
	return ctx
}

// inBrowserShard says whether this run takes the browser test named test
// (or a subtest of it). BROWSER_SHARD=i/n splits the browser tests between n
// runs by a hash of the top-level test's name: .ci/run gives one half to the
// PostgreSQL run and the other to the SQLite run, since a page does the same
// on either database and Chromium is most of the suite's time. Unset, a run
// takes them all.
func inBrowserShard(test string) bool {
	shard := os.Getenv("BROWSER_SHARD")
	if shard == "" {
		return true
	}
	i, n, ok := parseShard(shard)
	if !ok {
		panic(fmt.Sprintf("BROWSER_SHARD=%q: want i/n with 1 <= i <= n", shard))
	}
	root, _, _ := strings.Cut(test, "/")
	h := fnv.New32a()
	h.Write([]byte(root))
	return int(h.Sum32()%uint32(n)) == i-1
}

func parseShard(s string) (i, n int, ok bool) {
	a, b, found := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	return i, n, found && err1 == nil && err2 == nil && n >= 1 && i >= 1 && i <= n
}

// browserSlots bounds the tests that drive Chromium at once: page work is
// CPU-bound, so browser tests run one at a time (the rest of their work, such
// as starting the platform, overlaps other tests). A test holds its slot
// until it ends; its subtests share it.
var browserSlots = struct {
	mu   sync.Mutex
	held map[string]int // top-level test → its browsers open
	free chan struct{}
}{held: map[string]int{}, free: make(chan struct{}, 1)}

func takeBrowserSlot(t *testing.T) {
	root, _, _ := strings.Cut(t.Name(), "/")
	browserSlots.mu.Lock()
	if browserSlots.held[root] == 0 {
		browserSlots.mu.Unlock()
		browserSlots.free <- struct{}{}
		browserSlots.mu.Lock()
	}
	browserSlots.held[root]++
	browserSlots.mu.Unlock()
	t.Cleanup(func() {
		browserSlots.mu.Lock()
		defer browserSlots.mu.Unlock()
		if browserSlots.held[root]--; browserSlots.held[root] == 0 {
			<-browserSlots.free
		}
	})
}

// chromium is the test binary's headless Chromium: the context of its first
// tab, and how to stop it (stopChromium, from TestMain).
var chromium struct {
	mu      sync.Mutex
	ctx     context.Context
	stop    func()
	profile string
}

// sharedChromium returns the context of the running Chromium, starting it
// when there is none or the last one has gone.
func sharedChromium() (context.Context, error) {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx, nil
	}
	stopChromiumLocked()
	profile, err := os.MkdirTemp("", "chromium-profile-")
	if err != nil {
		return nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		// the user prefers reduced motion: the console app then opens its
		// dialogs without a fade, so what a test (or axe-core) reads is the
		// dialog as it stays, not a frame of its transition
		chromedp.Flag("force-prefers-reduced-motion", true),
		chromedp.UserDataDir(profile))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	chromium.ctx, chromium.profile = ctx, profile
	chromium.stop = func() {
		cancelCtx()
		cancelAlloc()
	}
	if err := chromedp.Run(ctx); err != nil {
		stopChromiumLocked()
		return nil, err
	}
	return ctx, nil
}

// stopChromium stops the test binary's Chromium, if it runs.
func stopChromium() {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	stopChromiumLocked()
}

func stopChromiumLocked() {
	if chromium.stop != nil {
		chromium.stop()
		_ = os.RemoveAll(chromium.profile) // best effort: Chromium may still be flushing its profile
	}
	chromium.ctx, chromium.stop, chromium.profile = nil, nil, ""
}

// shot saves a screenshot into SCREENSHOT_DIR, when it is set: a full-page
// PNG is Chromium's CPU, so a run that keeps none takes none.
func shot(t *testing.T, ctx context.Context, name string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		dir := os.Getenv("SCREENSHOT_DIR")
		if dir == "" {
			return nil
		}
		var buf []byte
		if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
			return err
		}
		_ = os.MkdirAll(dir, 0o755)
		path := filepath.Join(dir, name+".png")
		t.Logf("screenshot %s", path)
		return os.WriteFile(path, buf, 0o644)
	})
}

// gatewayLogin types an e-mail at the console gateway and waits for the
// identity provider's page.
func gatewayEmail(base, email string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(base),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, email, chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
	}
}

// providerPassword fills the identity provider's password form.
func providerPassword(password string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.WaitVisible(`#password`, chromedp.ByID),
		chromedp.SendKeys(`#password`, password, chromedp.ByID),
		chromedp.Submit(`#password`, chromedp.ByID),
	}
}

// profile reads who the console app says is signed in: the role in the
// header and, in the customer portal, the customer's name as the start
// page's heading.
func profile(ctx context.Context, t *testing.T) (role, customer, path string) {
	t.Helper()
	var loc string
	if err := chromedp.Run(ctx,
		// the content, not only the element: the role comes from the GraphQL me query
		waitShows(`[data-testid="role"]`, ""),
		textOf(`[data-testid="role"]`, &role),
		chromedp.Location(&loc),
	); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(loc)
	if u.Path == "/portal" {
		if err := chromedp.Run(ctx, waitTrue(`(document.getElementById("page-title")?.textContent ?? "") !== ""`),
			textOf(`#page-title`, &customer)); err != nil {
			t.Fatal(err)
		}
	}
	return role, customer, u.Path
}

// Flow 1 end to end in Chromium: a customer user with a password lands on
// the customer portal, an internal user on the dashboard, an unknown address
// sees the generic error.
// spec: R5.2-flow, R1-gateway, R4.1-ro-password, R4.1-me, R7.2-generic
func TestBrowserConsoleLogin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	base := m.Config.ConsoleURL + "/"

	t.Run("CustomerPassword", func(t *testing.T) {
		ctx := mustBrowser(t)
		var hint string
		if err := chromedp.Run(ctx, gatewayEmail(base, "alice@acme.example"),
			chromedp.WaitVisible(`#password`, chromedp.ByID),
			chromedp.Value(`#email`, &hint, chromedp.ByID),
			shot(t, ctx, "idp-login"),
			providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		if hint != "alice@acme.example" {
			t.Fatalf("login_hint not prefilled: %q", hint)
		}
		role, customer, path := profile(ctx, t)
		if role != "owner" || customer != "Acme Construction" || path != "/portal" {
			t.Fatalf("landed on %s as %s of %q", path, role, customer)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "console-portal"))

		// spec: R5.2-silent
		t.Run("SilentReauthentication", func(t *testing.T) {
			var path string
			if err := chromedp.Run(ctx,
				chromedp.Evaluate(`sessionStorage.clear()`, nil),
				chromedp.Navigate(m.Config.ConsoleURL+"/portal"),
				waitShows(`[data-testid="role"]`, "owner"),
				chromedp.Evaluate(`location.pathname`, &path)); err != nil {
				t.Fatal(err)
			}
			if path != "/portal" {
				t.Fatalf("silent sign-in landed on %s", path)
			}
		})
	})

	t.Run("InternalUser", func(t *testing.T) {
		ctx := mustBrowser(t)
		if err := chromedp.Run(ctx, gatewayEmail(base, "admin@platform.example"), providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		role, _, path := profile(ctx, t)
		if role != "platform_admin" || path != "/dashboard" {
			t.Fatalf("internal user landed on %s as %s", path, role)
		}
		_ = chromedp.Run(ctx, shot(t, ctx, "console-dashboard"))
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		ctx := mustBrowser(t)
		var msg, loc string
		if err := chromedp.Run(ctx, gatewayEmail(base, "nobody@nowhere.example"),
			chromedp.WaitVisible(`#error`, chromedp.ByID),
			textOf(`#error`, &msg),
			chromedp.Location(&loc),
			shot(t, ctx, "console-not-found")); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "could not sign you in") || !strings.HasPrefix(loc, m.Config.ConsoleURL) {
			t.Fatalf("not_found showed %q at %s", msg, loc)
		}
	})

	// spec: R4.1-ro-customer
	t.Run("OrganizationChoice", func(t *testing.T) {
		ctx := mustBrowser(t)
		var orgs []string
		if err := chromedp.Run(ctx, gatewayEmail(base, "dana@partner.example"),
			chromedp.WaitVisible(`#org-step`, chromedp.ByID),
			chromedp.Evaluate(`[...document.querySelectorAll('#org-list button')].map(b => b.textContent)`, &orgs),
			shot(t, ctx, "console-org-choice"),
			chromedp.Click(`//button[text()="Acme Construction"]`, chromedp.BySearch),
			providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		if strings.Join(orgs, ",") != "Acme Construction,Globex Engineering" {
			t.Fatalf("organizations offered: %v", orgs)
		}
		role, customer, _ := profile(ctx, t)
		if role != "viewer" || customer != "Acme Construction" {
			t.Fatalf("dana landed as %s of %s", role, customer)
		}
	})

	// spec: R4.1-ro-sso, R5.4-skip
	t.Run("SSOUser", func(t *testing.T) {
		ctx := mustBrowser(t)
		var loc string
		if err := chromedp.Run(ctx, gatewayEmail(base, "peter@initech.example"),
			chromedp.WaitVisible(`#password`, chromedp.ByID),
			chromedp.Location(&loc)); err != nil {
			t.Fatal(err)
		}
		// the page shown is the directory's, reached through the federation client
		if err := chromedp.Run(ctx, providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		role, customer, path := profile(ctx, t)
		if role != "member" || customer != "Initech" || path != "/portal" {
			t.Fatalf("SSO user landed on %s as %s of %q", path, role, customer)
		}
	})
}

// Flow 2 at the console: a tenant-app request is taken through the gateway
// and the provider straight to the app's callback with the app's state; an
// unregistered redirect URI is refused.
// spec: R5.3-refuse, R5.3-direct, R4.1-rc-never
func TestBrowserTenantGateway(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	q := url.Values{"client_id": {m.Config.InstanceClientID}, "redirect_uri": {m.Config.InstanceURL + "/auth/callback"},
		"scope": {"openid profile email offline_access"}, "code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"},
		"code_challenge_method": {"S256"}, "state": {"tenant-state-1"}, "nonce": {"tenant-nonce-1"}}

	t.Run("ErrUnregisteredRedirect", func(t *testing.T) {
		ctx := mustBrowser(t)
		bad := url.Values{}
		for k, v := range q {
			bad[k] = v
		}
		bad.Set("redirect_uri", "https://evil.example/auth/callback")
		var refused string
		var forms int
		if err := chromedp.Run(ctx, chromedp.Navigate(m.Config.ConsoleURL+"/?"+bad.Encode()),
			chromedp.WaitVisible(`#refused`, chromedp.ByID),
			textOf(`#refused`, &refused),
			chromedp.Evaluate(`document.querySelectorAll('form').length`, &forms),
			shot(t, ctx, "console-refused")); err != nil {
			t.Fatal(err)
		}
		if forms != 0 || !strings.Contains(refused, "not registered") {
			t.Fatalf("refusal %q with %d forms", refused, forms)
		}
	})

	t.Run("OK", func(t *testing.T) {
		ctx := mustBrowser(t)
		var loc string
		if err := chromedp.Run(ctx, gatewayEmail(m.Config.ConsoleURL+"/?"+q.Encode(), "bob@acme.example"),
			providerPassword(DemoPassword),
			chromedp.WaitReady(`body`, chromedp.ByQuery),
			chromedp.ActionFunc(func(ctx context.Context) error {
				for i := 0; i < 100; i++ {
					if err := chromedp.Location(&loc).Do(ctx); err != nil {
						return err
					}
					if strings.HasPrefix(loc, m.Config.InstanceURL) {
						return nil
					}
					time.Sleep(100 * time.Millisecond)
				}
				return nil
			})); err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(loc)
		if !strings.HasPrefix(loc, m.Config.InstanceURL+"/auth/callback?") || u.Query().Get("state") != "tenant-state-1" || u.Query().Get("code") == "" {
			t.Fatalf("the provider did not redirect straight to the app's callback: %s", loc)
		}
	})
	t.Run("ErrInternalUserGeneric", func(t *testing.T) {
		ctx := mustBrowser(t)
		var msgInternal, msgUnknown string
		if err := chromedp.Run(ctx, gatewayEmail(m.Config.ConsoleURL+"/?"+q.Encode(), "admin@platform.example"),
			chromedp.WaitVisible(`#error`, chromedp.ByID), textOf(`#error`, &msgInternal),
			gatewayEmail(m.Config.ConsoleURL+"/?"+q.Encode(), "nobody@nowhere.example"),
			chromedp.WaitVisible(`#error`, chromedp.ByID), textOf(`#error`, &msgUnknown)); err != nil {
			t.Fatal(err)
		}
		// spec: R5.5-enum, R4.1-ro-internal
		if msgInternal == "" || msgInternal != msgUnknown {
			t.Fatalf("internal %q and unknown %q differ", msgInternal, msgUnknown)
		}
	})
}

// recorder keeps what a role received: every request's URL and body.
type recorder struct {
	mu   sync.Mutex
	reqs []string
}

func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, r.Method+" "+r.URL.String()+" "+string(body))
		rec.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (rec *recorder) all() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.reqs...)
}

// mustRunRecorded starts the platform recording what the console and the
// tenant role receive.
func mustRunRecorded(t *testing.T) (*Main, *recorder, *recorder) {
	console, tenantRec := &recorder{}, &recorder{}
	m := mustRunMainWith(t, func(m *Main) {
		m.WrapRole = func(role string, h http.Handler) http.Handler {
			switch role {
			case RoleConsole:
				return console.wrap(h)
			case RoleTenant:
				return tenantRec.wrap(h)
			}
			return h
		}
	})
	return m, console, tenantRec
}

func waitForPath(ctx context.Context, want string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var path string
		for i := 0; i < 150; i++ {
			if err := chromedp.Evaluate(`location.pathname`, &path).Do(ctx); err == nil && path == want {
				return nil
			}
			time.Sleep(100 * time.Millisecond)
		}
		return fmt.Errorf("still at %q, waiting for %q", path, want)
	})
}

func tenantCookie(ctx context.Context, t *testing.T) string {
	t.Helper()
	var value string
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		cookies, err := network.GetCookies().Do(ctx)
		for _, c := range cookies {
			if c.Name == "tenant_session" && c.HTTPOnly {
				value = c.Value
			}
		}
		return err
	})); err != nil {
		t.Fatal(err)
	}
	return value
}

// Flow 2 end to end in Chromium: the tenant web app sends the user to the
// console gateway, the user picks nothing (one organization, one method),
// signs in at the identity provider, and lands on /projects with a session
// cookie; the console never sees a code or a token.
// spec: R5.3-flow, R5.3-direct, R5.1-no-tokens, R5.1-pkce, R1-gateway, R4.4-callbacks
func TestBrowserTenantWebApp(t *testing.T) {
	t.Parallel()
	m, consoleRec, tenantRec := mustRunRecorded(t)
	ctx := mustBrowser(t)
	var name string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(m.Config.InstanceURL+"/"),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		shot(t, ctx, "tenant-gateway"),
		chromedp.SendKeys(`#email`, "bob@acme.example", chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword),
		waitForPath(ctx, "/projects"),
		chromedp.WaitVisible(`#projects`, chromedp.ByID),
		textOf(`#user-name`, &name),
		shot(t, ctx, "tenant-projects"),
	); err != nil {
		t.Fatal(err)
	}
	if name != "Bob Brandt" || tenantCookie(ctx, t) == "" {
		t.Fatalf("landed on /projects as %q without an HttpOnly session cookie", name)
	}
	assertNoTokens(t, consoleRec.all())
	if !contains(tenantRec.all(), "GET /auth/callback?code=") {
		t.Fatal("the provider did not send the code to the app's callback")
	}

	// spec: R5.2-silent
	t.Run("SilentReloginAfterStorageCleared", func(t *testing.T) {
		var path string
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(`sessionStorage.clear()`, nil),
			network.DeleteCookies("tenant_session").WithURL(m.Config.InstanceURL),
			chromedp.Navigate(m.Config.InstanceURL+"/"),
			waitForPath(ctx, "/projects"),
			chromedp.WaitVisible(`#projects`, chromedp.ByID),
			chromedp.Evaluate(`location.pathname`, &path)); err != nil {
			t.Fatal(err)
		}
		if tenantCookie(ctx, t) == "" {
			t.Fatal("no new session after the silent sign-in")
		}
	})
	t.Run("SignOut", func(t *testing.T) {
		if err := chromedp.Run(ctx, chromedp.Click(`#sign-out`, chromedp.ByID),
			waitForPath(ctx, "/signed-out"),
			chromedp.WaitVisible(`#sign-in`, chromedp.ByID)); err != nil {
			t.Fatal(err)
		}
		if tenantCookie(ctx, t) != "" {
			t.Fatal("session cookie survived sign-out")
		}
	})
}

// The same flow through the v3 route /3/auth/callback.
// spec: R9-callbacks, R4.1-rc3
func TestBrowserTenantWebAppV3(t *testing.T) {
	t.Parallel()
	m, consoleRec, tenantRec := mustRunRecorded(t)
	ctx := mustBrowser(t)
	if err := chromedp.Run(ctx,
		chromedp.Navigate(m.Config.InstanceURL+"/3/"),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, "alice@acme.example", chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword),
		waitForPath(ctx, "/projects"),
		chromedp.WaitVisible(`#projects`, chromedp.ByID),
	); err != nil {
		t.Fatal(err)
	}
	if !contains(tenantRec.all(), "GET /3/auth/callback?code=") {
		t.Fatal("the provider did not use the /3/auth/callback route")
	}
	assertNoTokens(t, consoleRec.all())
}

// assertNoTokens checks that the console received neither an authorization
// code nor any token (R5.1-no-tokens).
func assertNoTokens(t *testing.T, reqs []string) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("the console received nothing: the flow did not go through the gateway")
	}
	for _, r := range reqs {
		parts := strings.SplitN(r, " ", 3)
		u, _ := url.Parse(parts[1])
		if u.Query().Has("code") || strings.Contains(r, "eyJ") || strings.Contains(r, "refresh_token") ||
			strings.Contains(r, "access_token") || strings.Contains(r, "id_token") {
			t.Fatalf("the console received a code or token: %.200s", r)
		}
	}
}

func contains(reqs []string, prefix string) bool {
	for _, r := range reqs {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}
