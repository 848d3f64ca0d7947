package httpapi

import "net/http"

// hstsValue keeps browsers on HTTPS for a year once they have seen it.
const hstsValue = "max-age=31536000"

// SecurityHeaders sets what every answer of a role carries, whatever
// handler writes it: X-Content-Type-Options: nosniff (no script or style
// sheet is ever guessed from content), and, when the role's public URL is
// https (tls: TLS here or at a proxy in front), Strict-Transport-Security,
// so a browser that has been there once never again speaks plain HTTP to it,
// where a network attacker could rewrite the sign-in pages.
func SecurityHeaders(tls bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("X-Content-Type-Options", "nosniff")
			if tls {
				h.Set("Strict-Transport-Security", hstsValue)
			}
			next.ServeHTTP(w, r)
		})
	}
}
