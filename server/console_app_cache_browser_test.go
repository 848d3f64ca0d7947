package main

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// served is one request a role answered: what was asked and how it was
// answered.
type served struct {
	method, path, ifNoneMatch string
	status                    int
	header                    http.Header
}

// answers records the requests a role answers, with their status.
type answers struct {
	mu   sync.Mutex
	list []served
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (a *answers) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		a.mu.Lock()
		a.list = append(a.list, served{r.Method, r.URL.Path, r.Header.Get("If-None-Match"), sw.status, w.Header().Clone()})
		a.mu.Unlock()
	})
}

// since returns the answers after the first n.
func (a *answers) since(n int) []served {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]served(nil), a.list[n:]...)
}

func (a *answers) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.list)
}

// The console app loaded a second time in Chromium transfers only its
// page's headers: the page is revalidated with its ETag and answered 304,
// and its scripts and style sheets, named by their content and sent the
// first time gzip-compressed as immutable, come from the browser's cache
// without a request.
func TestBrowserConsoleAppSecondLoadFromCache(t *testing.T) {
	t.Parallel()
	console := &answers{}
	m := mustRunMainWith(t, func(m *Main) {
		m.WrapRole = func(role string, h http.Handler) http.Handler {
			if role == RoleConsole {
				return console.wrap(h)
			}
			return h
		}
	})
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/customers", "Customers"), waitShows(`[data-testid="customers-table"]`, "Acme Construction"))
	var assets int
	for _, a := range console.since(0) {
		if !strings.HasPrefix(a.path, "/app/assets/") {
			continue
		}
		assets++
		if a.status != 200 || a.header.Get("Content-Encoding") != "gzip" || a.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("first load of %s: %d, Content-Encoding %q, Cache-Control %q", a.path, a.status, a.header.Get("Content-Encoding"), a.header.Get("Cache-Control"))
		}
	}
	if assets != len(appAssets()) {
		t.Errorf("the first loads fetched %d assets, the page has %d", assets, len(appAssets()))
	}

	before := console.count()
	run(t, ctx, chromedp.Navigate("about:blank"), open(m, "/dashboard/customers", "Customers"),
		waitShows(`[data-testid="customers-table"]`, "Acme Construction"))
	var pages int
	for _, a := range console.since(before) {
		switch {
		case strings.HasPrefix(a.path, "/app/assets/"):
			t.Errorf("the second load fetched %s (%d)", a.path, a.status)
		case a.path == "/dashboard/customers":
			pages++
			if a.status != http.StatusNotModified || a.ifNoneMatch == "" || a.ifNoneMatch != a.header.Get("ETag") {
				t.Errorf("the page on the second load: %d, If-None-Match %q, ETag %q", a.status, a.ifNoneMatch, a.header.Get("ETag"))
			}
		}
	}
	if pages != 1 {
		t.Errorf("the second load asked for the page %d times", pages)
	}
}
