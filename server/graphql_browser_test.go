package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// tableColumn reads one column of a table's body rows.
func tableColumn(ctx context.Context, table string, col int) ([]string, error) {
	var out []string
	err := chromedp.Run(ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid="`+table+`"] tbody tr')).map(r => r.cells[`+
		string(rune('0'+col))+`].textContent)`, &out))
	return out, err
}

// The console app shows its data through the GraphQL API (D-graphql):
// tenants with their customers, instances only for roles that may read
// them, usage with billed amounts only for roles holding view_billed_units.
// The playground is served in the all-in-one role.
// spec: R5.7-redact
func TestBrowserDashboardGraphQL(t *testing.T) {
	m := MustRunMain(t)
	base := m.Config.ConsoleURL + "/"
	for _, tc := range []struct {
		email     string
		path      string
		instances bool
		billed    bool
	}{
		{"admin@platform.example", "/dashboard", true, true},
		{"alice@acme.example", "/portal", false, true},
		{"bob@acme.example", "/portal", false, false},
	} {
		t.Run(tc.email, func(t *testing.T) {
			ctx := mustBrowser(t)
			if err := chromedp.Run(ctx, gatewayEmail(base, tc.email), providerPassword(DemoPassword)); err != nil {
				t.Fatal(err)
			}
			_, _, path := profile(ctx, t)
			if path != tc.path {
				t.Fatalf("landed on %s", path)
			}
			var nav []string
			if err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll("nav a")].map(a => a.textContent.trim())`, &nav)); err != nil {
				t.Fatal(err)
			}
			if has(nav, "Instances") != tc.instances {
				t.Errorf("instances offered = %v, want %v (%v)", !tc.instances, tc.instances, nav)
			}
			if err := chromedp.Run(ctx, open(m, tc.path+"/usage", "Usage"), waitShows(`[data-testid="usage-table"]`, "-")); err != nil {
				t.Fatal(err)
			}
			periods, err := tableColumn(ctx, "usage-table", 0)
			if err != nil || len(periods) == 0 {
				t.Fatalf("no usage rows: %v", err)
			}
			billed, _ := tableColumn(ctx, "usage-table", 3)
			for _, b := range billed {
				if (b != "Hidden for your role") != tc.billed {
					t.Fatalf("billed column %q, want shown=%v", billed, tc.billed)
				}
			}
			if tc.path == "/dashboard" {
				if err := chromedp.Run(ctx, open(m, "/dashboard/tenants", "Tenants"), waitShows(`[data-testid="tenants-table"]`, "")); err != nil {
					t.Fatal(err)
				}
				tenants, _ := tableColumn(ctx, "tenants-table", 1)
				if len(tenants) == 0 || tenants[0] == "—" {
					t.Errorf("tenants without customers: %q", tenants)
				}
			}
			_ = chromedp.Run(ctx, shot(t, ctx, "graphql-"+strings.Split(tc.email, "@")[0]))
		})
	}

	t.Run("Playground", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, m.Config.ConsoleURL+"/graphql", nil)
		req.Header.Set("Accept", "text/html")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), "GraphiQL") || !strings.Contains(string(b), `/graphql/assets/graphiql.min.js`) {
			t.Errorf("playground: %d %.200s", resp.StatusCode, b)
		}
	})
}

// offline records every request the browser makes whose host is not the
// platform's own (the test's listeners on localhost).
type offline struct {
	mu      sync.Mutex
	outside []string
}

func watchOffline(ctx context.Context) *offline {
	o := &offline{}
	chromedp.ListenTarget(ctx, func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok {
			return
		}
		u, err := url.Parse(e.Request.URL)
		if err != nil || u.Scheme == "data" || u.Scheme == "blob" {
			return
		}
		if h := u.Hostname(); h != "localhost" && h != "127.0.0.1" {
			o.mu.Lock()
			o.outside = append(o.outside, e.Request.URL)
			o.mu.Unlock()
		}
	})
	return o
}

// waitContains waits until the element sel's text contains want (the content,
// not only the element).
func waitContains(sel, want string) chromedp.Action {
	return chromedp.Poll(`(document.querySelector(`+jsString(sel)+`)?.innerText || "").includes(`+jsString(want)+`)`, nil)
}

func jsString(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// The GraphQL playground signs in by itself through the console's PKCE
// flow (the console's sign-in page when the provider has no session, and
// back), loads GraphiQL and the schema from this host only, opens with the
// example query and runs it; a second tab reuses the provider's session
// without asking again.
// spec: D-playground
func TestBrowserPlayground(t *testing.T) {
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	off := watchOffline(ctx)
	play := m.Config.ConsoleURL + "/graphql"
	var loc string
	if err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1280, 2400),
		chromedp.Navigate(play),
		// No session anywhere: the console's sign-in page, then back.
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, "admin@platform.example", chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword),
		chromedp.WaitVisible(`.graphiql-container`, chromedp.ByQuery),
		chromedp.Location(&loc),
		waitContains(`.graphiql-query-editor`, "query Example"),
		// The schema, through the standard introspection query: the docs list the root types.
		chromedp.Click(`button[aria-label="Show Documentation Explorer"]`, chromedp.ByQuery),
		waitContains(`.graphiql-doc-explorer`, "Mutation"),
		chromedp.Click(`.graphiql-execute-button`, chromedp.ByQuery),
		waitContains(`.graphiql-response`, "admin@platform.example"),
	); err != nil {
		_ = chromedp.Run(ctx, shot(t, ctx, "playground-failed"))
		t.Fatal(err)
	}
	if loc != play {
		t.Errorf("signed in to %s, want back at %s", loc, play)
	}
	var result string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector(".graphiql-response").innerText`, &result), shot(t, ctx, "playground"))
	if !strings.Contains(result, `"platform_admin"`) || !strings.Contains(result, `"nextCursor"`) || strings.Contains(result, `"errors"`) {
		t.Errorf("example query answered %.400s", result)
	}

	// Another tab: no token in its sessionStorage, the provider's session signs it in silently.
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Run(tab, chromedp.Navigate(play),
		chromedp.WaitVisible(`.graphiql-container`, chromedp.ByQuery),
		chromedp.Click(`.graphiql-execute-button`, chromedp.ByQuery),
		waitContains(`.graphiql-response`, "admin@platform.example"),
	); err != nil {
		_ = chromedp.Run(tab, shot(t, tab, "playground-tab-failed"))
		t.Fatal(err)
	}
	off.mu.Lock()
	defer off.mu.Unlock()
	if len(off.outside) > 0 {
		t.Errorf("the playground loaded from other hosts: %v", off.outside)
	}
}
