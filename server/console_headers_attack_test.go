package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/platform/platform/internal/web"
)

// consolePages are the HTML pages of the console role: the gateway (and
// its refusal of a bad tenant-app request), the callback, the app's page
// under both bases and the GraphQL playground.
var consolePages = []string{"/", "/?client_id=x&redirect_uri=y", "/callback", "/dashboard", "/dashboard/customers?tab=users",
	"/portal", "/portal/usage", "/graphql"}

// consoleFiles are files and answers of the console role that are not
// pages, the console app's assets (named by their hashes) among them.
var consoleFiles = append([]string{"/static/console.js", "/static/console.css",
	"/graphql/assets/graphiql.min.js", "/graphql/assets/playground.js", "/api/v1/auth/me", "/no-such-page"}, appAssets()...)

// appAssets are the paths of the scripts and style sheets the console
// app's page loads.
func appAssets() []string {
	page, err := web.FS.ReadFile("console/dist/index.html")
	if err != nil {
		panic(err)
	}
	var out []string
	for _, m := range pageRef.FindAllStringSubmatch(string(page), -1) {
		if strings.HasPrefix(m[1], "/app/assets/") {
			out = append(out, m[1])
		}
	}
	return out
}

// pageRef finds the addresses a page loads or links to.
var pageRef = regexp.MustCompile(`(?i)\b(?:src|href|action)\s*=\s*"([^"]*)"`)

// Every page the console serves behind TLS (CONSOLE_URL https, TLS ended
// at a proxy) is framed by no one (clickjacking the playground's Run button
// or the app's delete confirmations), runs only its own scripts, loads
// nothing from another host but the platform's identity provider (its
// token endpoint, an organization's logo), is never sniffed into another type, leaks no
// address in the Referer, and tells the browser to stay on HTTPS (a network
// attacker on a later plain-HTTP visit would rewrite the sign-in page);
// files and API answers carry nosniff and HSTS too. Over plain HTTP no
// HSTS is sent.
//
// attack: console-page-headers
func TestAttackConsolePageHeaders(t *testing.T) {
	t.Parallel()
	var listener string
	m := mustRunMainWith(t, func(m *Main) {
		listener = m.Config.ConsoleURL
		m.Config.ConsoleURL = "https://console.example"
	})
	fetch := func(path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, listener+path, nil)
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for _, path := range consolePages {
		resp, body := fetch(path, "text/html,application/xhtml+xml")
		h := resp.Header
		if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s, want a page", path, resp.StatusCode, h.Get("Content-Type"))
			continue
		}
		csp := directives(h.Get("Content-Security-Policy"))
		if csp["frame-ancestors"] != "'none'" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s can be framed: frame-ancestors %q, X-Frame-Options %q", path, csp["frame-ancestors"], h.Get("X-Frame-Options"))
		}
		if csp["default-src"] != "'none'" || csp["script-src"] != "'self'" || csp["base-uri"] != "'none'" {
			t.Errorf("%s: CSP %q, want default-src 'none', script-src 'self', base-uri 'none'", path, h.Get("Content-Security-Policy"))
		}
		for name, v := range csp {
			for _, src := range strings.Fields(v) {
				if strings.Contains(src, "unsafe-eval") || strings.Contains(src, "*") || src == "http:" || src == "https:" || src == "data:" && name != "img-src" && name != "font-src" {
					t.Errorf("%s: CSP %s allows %s", path, name, src)
				}
				// the identity provider only: its token endpoint, and an
				// organization's logo it serves (D-branding)
				if strings.Contains(src, "://") && !((name == "connect-src" || name == "img-src") && src == m.Config.IssuerURL) {
					t.Errorf("%s: CSP %s names another host: %s", path, name, src)
				}
			}
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: X-Content-Type-Options %q, Referrer-Policy %q", path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
		if !strings.HasPrefix(h.Get("Strict-Transport-Security"), "max-age=") || h.Get("Strict-Transport-Security") == "max-age=0" {
			t.Errorf("%s behind TLS: Strict-Transport-Security %q", path, h.Get("Strict-Transport-Security"))
		}
		for _, ref := range pageRef.FindAllStringSubmatch(body, -1) {
			if u := ref[1]; !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
				t.Errorf("%s refers to %q, not a path of this host", path, u)
			}
		}
	}
	for _, path := range consoleFiles {
		resp, _ := fetch(path, "*/*")
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Strict-Transport-Security") == "" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, Strict-Transport-Security %q", path, resp.StatusCode,
				resp.Header.Get("X-Content-Type-Options"), resp.Header.Get("Strict-Transport-Security"))
		}
	}

	plain := MustRunMain(t)
	resp, err := http.Get(plain.Config.ConsoleURL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if v := resp.Header.Get("Strict-Transport-Security"); v != "" {
		t.Errorf("plain HTTP console sends Strict-Transport-Security %q", v)
	}
}

// directives splits a content security policy into its directives.
func directives(policy string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, v, _ := strings.Cut(strings.TrimSpace(d), " ")
		if name != "" {
			out[name] = strings.TrimSpace(v)
		}
	}
	return out
}
