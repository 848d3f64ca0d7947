package idp

import (
	"net/http"
	"strings"
	"testing"
)

// An unknown address at the provider answers the styled page with a way
// back, not the bare "404 page not found".
func TestStyledNotFound(t *testing.T) {
	ti := mustIDP(t, func(c *Config) { c.ConsoleURL = "https://console.example" })
	resp, body := ti.browser().get(ti.issuer + "/no/such/page")
	if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, `class="card"`) || !strings.Contains(body, `href="https://console.example/"`) {
		t.Fatalf("404 = %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
