package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// tableColumn reads one column of a table's body rows.
func tableColumn(ctx context.Context, table string, col int) ([]string, error) {
	var out []string
	err := chromedp.Run(ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid="`+table+`"] tbody tr')).map(r => r.cells[`+
		string(rune('0'+col))+`].textContent)`, &out))
	return out, err
}

// The console app shows its data through the GraphQL API (DESIGN 6):
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
			if err := chromedp.Run(ctx, open(m, tc.path+"/usage", "Usage"), waitContains(`[data-testid="usage-table"]`, "-")); err != nil {
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
				if err := chromedp.Run(ctx, open(m, "/dashboard/tenants", "Tenants"), waitContains(`[data-testid="tenants-table"]`, "")); err != nil {
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
		if resp.StatusCode != 200 || !strings.Contains(string(b), "GraphiQL") || !strings.Contains(string(b), `sessionStorage.getItem("access_token")`) {
			t.Errorf("playground: %d %.200s", resp.StatusCode, b)
		}
	})
}
