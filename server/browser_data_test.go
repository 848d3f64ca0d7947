package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/tenant"
)

// sampleDir holds the sample spreadsheets of the data API.
var sampleDir = filepath.Join("..", "internal", "data", "testdata")

// dataRequest calls the tenant role's data API.
func dataRequest(t *testing.T, c *http.Client, method, url string, body []byte, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s %s: %d %.300s", method, url, resp.StatusCode, b)
	}
	return resp.StatusCode, out
}

// The data API on the running platform with real credentials: a bearer
// access token of the instance client and the tenant session cookie. The
// demo data is there for Acme's owner and not for Globex's users.
// spec: R4.5-list, R2.2-envelope, D-data-access, D-api-auth
func TestDemoDataAPI(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	base := m.Config.InstanceURL
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, base+"/auth/callback", "alice@acme.example", "offline_access")
	bearer := map[string]string{"Authorization": "Bearer " + tok.AccessToken}

	code, page := dataRequest(t, http.DefaultClient, http.MethodGet, base+"/api/v1/master-record/System?pageSize=3", nil, bearer)
	if code != 200 || page["total"] != float64(9) || page["totalPages"] != float64(3) || len(page["rows"].([]any)) != 3 {
		t.Fatalf("System listing: %d %v", code, page)
	}
	first := page["rows"].([]any)[0].(map[string]any)
	if first["slug"] != "chilled-water-plant" || first["tenantID"] != DemoAcmeTenantID || first["createdAt"] != "2025-01-06T10:50:01.370Z" {
		t.Errorf("first System record: %v", first)
	}
	code, body := dataRequest(t, http.DefaultClient, http.MethodGet, base+"/api/v1/master-record/Elevator", nil, bearer)
	if code != 500 || body["error"].(map[string]any)["summary"] != "Service Exception" {
		t.Errorf("unknown master: %d %v", code, body)
	}
	if code, _ := dataRequest(t, http.DefaultClient, http.MethodGet, base+"/api/v1/master-record/System", nil,
		map[string]string{"Authorization": "Bearer not-a-token"}); code != http.StatusUnauthorized {
		t.Errorf("bad token: %d", code)
	}

	// the same user by session cookie, as the web app calls it
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, _ := postJSON(t, c, base+"/auth/idp/callback", tenant.CallbackRequest{IDToken: tok.Extra("id_token").(string),
		AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
	if resp.StatusCode != 200 {
		t.Fatalf("session: %d", resp.StatusCode)
	}
	code, mine := dataRequest(t, c, http.MethodGet, base+"/api/v1/me/tenants", nil, nil)
	tenants := mine["tenants"].([]any)
	if code != 200 || len(tenants) != 1 || tenants[0].(map[string]any)["name"] != "Harbor Campus" || tenants[0].(map[string]any)["canUpload"] != true {
		t.Fatalf("me/tenants: %d %v", code, mine)
	}
	upload := []byte(`{"scheduleId":"` + DemoHarborScheduleID + `","data":[{"ID":"HT-L1","Name":"Level 1 fit-out inspection","ParentID":"HT-BLDG"}]}`)
	jsonCT := map[string]string{"Content-Type": "application/json"}
	if code, body := dataRequest(t, c, http.MethodPost, base+"/api/v1/cx/upload", upload, jsonCT); code != http.StatusForbidden {
		t.Errorf("cookie upload without the CSRF header: %d %v", code, body)
	}
	jsonCT["X-Requested-With"] = "test"
	if code, body := dataRequest(t, c, http.MethodPost, base+"/api/v1/cx/upload", upload, jsonCT); code != 200 || body["status"] != "applied" {
		t.Errorf("cookie upload: %d %v", code, body)
	}
}

// waitText waits until the element with the id shows exactly want.
func waitText(id, want string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var got string
		for i := 0; i < 150; i++ {
			if err := textOf(`#`+id, &got).Do(ctx); err != nil {
				return err
			}
			if got == want {
				return nil
			}
			time.Sleep(50 * time.Millisecond)
		}
		return fmt.Errorf("#%s shows %q, waiting for %q", id, got, want)
	})
}

// Seeding twice changes nothing.
func TestSeedDemoDataTwice(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := context.Background()
	if err := SeedDemoData(ctx, m.Store); err != nil {
		t.Fatal(err)
	}
	rows, err := m.Store.ScheduleRows(ctx, DemoHarborScheduleID)
	if err != nil || len(rows) != 3 {
		t.Fatalf("Harbor Tower schedule: %d rows, %v", len(rows), err)
	}
}

// The /projects page end to end in Chromium: alice signs in through the
// console gateway, sees her tenant's master records and pages through them,
// uploads the bad sample spreadsheet (the report shows; nothing is saved)
// and then the good one (a dry run first, then applied).
// spec: R5.3-flow, R4.5-list, R4.5-cx-same, R4.5-cx-cycle, D-cx
func TestBrowserProjectsData(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	stored := func() int {
		t.Helper()
		rows, err := m.Store.ScheduleRows(context.Background(), DemoHarborScheduleID)
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	abs := func(name string) string {
		p, err := filepath.Abs(filepath.Join(sampleDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	waitStatus := func(status string) chromedp.Action {
		return chromedp.WaitVisible(`#upload-result[data-status="`+status+`"]`, chromedp.ByQuery)
	}

	var summary, firstSlug, role string
	var rows int
	if err := chromedp.Run(ctx,
		chromedp.Navigate(m.Config.InstanceURL+"/"),
		chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.SendKeys(`#email`, "alice@acme.example", chromedp.ByID),
		chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword),
		waitForPath(ctx, "/projects"),
		chromedp.WaitVisible(`#records-table tbody tr`, chromedp.ByQuery),
		textOf(`#records-summary`, &summary),
		textOf(`#records-table tbody tr:first-child td:first-child`, &firstSlug),
		textOf(`#user-role`, &role),
		chromedp.Evaluate(`document.querySelectorAll('#records-table tbody tr').length`, &rows),
		shot(t, ctx, "tenant-projects-records"),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(summary, "5 records · page 1 of 1") || firstSlug != "harbor-campus" || rows != 5 || !strings.Contains(role, "owner") {
		t.Fatalf("records: %q, first %q, %d rows, role %q", summary, firstSlug, rows, role)
	}

	t.Run("Paging", func(t *testing.T) {
		var s2, slug string
		var deleted int
		setSelect := func(id, v string) chromedp.Tasks {
			return chromedp.Tasks{chromedp.SetValue(`#`+id, v, chromedp.ByID),
				chromedp.Evaluate(`document.getElementById('`+id+`').dispatchEvent(new Event('change'))`, nil)}
		}
		if err := chromedp.Run(ctx,
			setSelect("master-name", "System"),
			waitText(`records-summary`, "9 records · page 1 of 1"),
			chromedp.Click(`#records-deleted`, chromedp.ByID),
			waitText(`records-summary`, "10 records · page 1 of 1"),
			setSelect("records-page-size", "5"),
			waitText(`records-summary`, "10 records · page 1 of 2"),
			chromedp.Click(`#records-next`, chromedp.ByID),
			waitText(`records-summary`, "10 records · page 2 of 2"),
			textOf(`#records-summary`, &s2),
			textOf(`#records-table tbody tr:first-child td:first-child`, &slug),
			chromedp.Evaluate(`document.querySelectorAll('#records-table tbody tr.deleted').length`, &deleted),
			shot(t, ctx, "tenant-records-page-2"),
		); err != nil {
			t.Fatal(err)
		}
		if slug != "ahu-1-supply-fan" || deleted != 1 {
			t.Fatalf("page 2 starts with %q and shows %d deleted records", slug, deleted)
		}
	})

	t.Run("ErrBadSpreadsheet", func(t *testing.T) {
		var msg string
		var codes []string
		if err := chromedp.Run(ctx,
			chromedp.SetUploadFiles(`#upload-file`, []string{abs("cx-sample-bad.xlsx")}, chromedp.ByID),
			chromedp.Click(`#upload-submit`, chromedp.ByID),
			waitStatus("invalid"),
			textOf(`#upload-message`, &msg),
			chromedp.Evaluate(`[...document.querySelectorAll('#upload-errors tbody td.code')].map(td => td.textContent)`, &codes),
			chromedp.ScrollIntoView(`#upload`, chromedp.ByID),
			shot(t, ctx, "tenant-upload-invalid"),
		); err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(codes, " ")
		if !strings.HasPrefix(msg, "Nothing was saved") || !strings.Contains(joined, "CIRCULAR_DEPENDENCY") || !strings.Contains(joined, "PARENT_NOT_FOUND") {
			t.Fatalf("report: %q %v", msg, codes)
		}
		if n := stored(); n != 3 {
			t.Fatalf("a bad upload changed the schedule: %d rows", n)
		}
	})

	t.Run("DryRunThenApply", func(t *testing.T) {
		var dry, applied, label string
		if err := chromedp.Run(ctx,
			chromedp.SetUploadFiles(`#upload-file`, []string{abs("cx-sample.xlsx")}, chromedp.ByID),
			chromedp.Click(`#upload-dry-run`, chromedp.ByID),
			chromedp.Click(`#upload-submit`, chromedp.ByID),
			waitStatus("valid"),
			textOf(`#upload-message`, &dry),
		); err != nil {
			t.Fatal(err)
		}
		if n := stored(); n != 3 || !strings.Contains(dry, "nothing saved") {
			t.Fatalf("dry run: %q, %d rows stored", dry, n)
		}
		if err := chromedp.Run(ctx,
			chromedp.Click(`#upload-dry-run`, chromedp.ByID),
			chromedp.Click(`#upload-submit`, chromedp.ByID),
			waitStatus("applied"),
			textOf(`#upload-message`, &applied),
			chromedp.ActionFunc(func(ctx context.Context) error { // the schedule's row count refreshes
				for i := 0; i < 100 && !strings.Contains(label, "(7 rows)"); i++ {
					if err := chromedp.Evaluate(`document.getElementById('upload-schedule').selectedOptions[0].textContent`, &label).Do(ctx); err != nil {
						return err
					}
					time.Sleep(50 * time.Millisecond)
				}
				return nil
			}),
			shot(t, ctx, "tenant-upload-applied"),
		); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(applied, "Saved: 4 rows received — 4 created") || !strings.Contains(label, "Harbor Tower commissioning (7 rows)") {
			t.Fatalf("applied: %q, schedule %q", applied, label)
		}
		if n := stored(); n != 7 {
			t.Fatalf("schedule holds %d rows, want 7", n)
		}
	})
}
