package httpapi

import (
	"html/template"
	"log/slog"
	"net/http"
)

// PageHeaders sets the headers of an HTML page the platform serves: its
// type, never stored (no-store), never framed (X-Frame-Options, for
// browsers without CSP 2; csp says frame-ancestors 'none' as well), no
// referrer, and csp, the page's Content-Security-Policy.
func PageHeaders(h http.Header, csp string) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", csp)
}

// RenderPage answers status and the template name of pages with data: a
// page of the login gateway or the tenant web app, which runs its own
// scripts and style sheets and talks to its own role and to the identity
// provider (issuer), and shows its images (an organization's logo,
// D-branding), nothing else.
func RenderPage(w http.ResponseWriter, status int, pages *template.Template, name string, data any, issuer string) {
	PageHeaders(w.Header(), "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' "+issuer+"; "+
		"connect-src 'self' "+issuer+"; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		slog.Error("render page", "page", name, "err", err)
	}
}
