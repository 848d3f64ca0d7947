package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The tenant web app keeps the master-record listing's tenant, master,
// filters, sort and page in the URL, so a reload shows the same page; a
// viewer sees no upload form; counts are plural only when they should be.
func TestBrowserTenantAppState(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)

	t.Run("ListingInURL", func(t *testing.T) {
		ctx := mustBrowser(t)
		setSelect := func(id, v string) chromedp.Tasks {
			return chromedp.Tasks{chromedp.SetValue(`#`+id, v, chromedp.ByID),
				chromedp.Evaluate(`document.getElementById('`+id+`').dispatchEvent(new Event('change'))`, nil)}
		}
		var before, after, slugBefore, slugAfter, sortAfter, sizeAfter, search string
		var labels []string
		if err := chromedp.Run(ctx,
			chromedp.Navigate(m.Config.InstanceURL+"/"),
			chromedp.WaitVisible(`#email`, chromedp.ByID),
			chromedp.SendKeys(`#email`, "alice@acme.example", chromedp.ByID),
			chromedp.Click(`#email-step button`, chromedp.ByQuery),
			providerPassword(DemoPassword),
			waitForPath(ctx, "/projects"),
			chromedp.WaitVisible(`#records-table tbody tr`, chromedp.ByQuery),
			chromedp.Evaluate(`[...document.querySelectorAll('#upload-schedule option')].map(o => o.textContent)`, &labels),
			setSelect("master-name", "System"),
			waitText(`records-summary`, "9 records · page 1 of 1"),
			setSelect("records-sort", "-slug"),
			chromedp.Click(`#records-deleted`, chromedp.ByID),
			waitText(`records-summary`, "10 records · page 1 of 1"),
			setSelect("records-page-size", "5"),
			waitText(`records-summary`, "10 records · page 1 of 2"),
			chromedp.Click(`#records-next`, chromedp.ByID),
			waitText(`records-summary`, "10 records · page 2 of 2"),
			textOf(`#records-summary`, &before),
			textOf(`#records-table tbody tr:first-child td:first-child`, &slugBefore),
			chromedp.Evaluate(`location.search`, &search),
			chromedp.Reload(),
			waitText(`records-summary`, "10 records · page 2 of 2"),
			textOf(`#records-summary`, &after),
			textOf(`#records-table tbody tr:first-child td:first-child`, &slugAfter),
			chromedp.Value(`#records-sort`, &sortAfter, chromedp.ByID),
			chromedp.Value(`#records-page-size`, &sizeAfter, chromedp.ByID),
			shot(t, ctx, "tenant-records-url"),
		); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"master=System", "sort=-slug", "deleted=true", "pageSize=5", "page=2"} {
			if !strings.Contains(search, want) {
				t.Errorf("URL %q lacks %s", search, want)
			}
		}
		if after != before || slugAfter != slugBefore || sortAfter != "-slug" || sizeAfter != "5" {
			t.Errorf("after reload %q %q sort %q size %q, before %q %q", after, slugAfter, sortAfter, sizeAfter, before, slugBefore)
		}
		plural := regexp.MustCompile(`\((1 row|\d+ rows)\)$`)
		for _, l := range labels {
			if !plural.MatchString(l) || strings.Contains(l, "(1 rows)") {
				t.Errorf("schedule label %q", l)
			}
		}
		if len(labels) == 0 {
			t.Errorf("no schedules offered to the owner")
		}
	})

	t.Run("ViewerSeesNoUploadForm", func(t *testing.T) {
		ctx := mustBrowser(t)
		var formDisplay, denied string
		if err := chromedp.Run(ctx,
			chromedp.Navigate(m.Config.InstanceURL+"/"),
			chromedp.WaitVisible(`#email`, chromedp.ByID),
			chromedp.SendKeys(`#email`, "dana@partner.example", chromedp.ByID),
			chromedp.Click(`#email-step button`, chromedp.ByQuery),
			chromedp.WaitVisible(`#org-step`, chromedp.ByID),
			chromedp.Click(`//button[text()="Acme Construction"]`, chromedp.BySearch),
			providerPassword(DemoPassword),
			waitForPath(ctx, "/projects"),
			chromedp.WaitVisible(`#upload-denied`, chromedp.ByID),
			textOf(`#upload-denied`, &denied),
			chromedp.Evaluate(`getComputedStyle(document.getElementById("upload-form")).display`, &formDisplay),
			shot(t, ctx, "tenant-viewer-upload"),
		); err != nil {
			t.Fatal(err)
		}
		if formDisplay != "none" || !strings.Contains(denied, "not upload") {
			t.Errorf("viewer: upload form display %q, notice %q", formDisplay, denied)
		}
	})
}
