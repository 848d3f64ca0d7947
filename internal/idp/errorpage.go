package idp

import (
	"bytes"
	"net/http"
	"strings"
)

// errorPages turns the plain-text errors the op library writes for requests it
// cannot redirect (unknown client, unregistered redirect URI, malformed
// request) into the provider's HTML error page. The library's description is
// shown; nothing is ever redirected from here.
func (p *Provider) errorPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ew := &errorCapture{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		if ew.captured {
			msg := strings.TrimSpace(ew.body.String())
			if msg == "" || len(msg) > 500 {
				msg = "The request could not be processed."
			}
			p.renderError(w, r, ew.status, "This sign-in request is not valid", msg+" Go back to the application and try again.")
		}
	})
}

type errorCapture struct {
	http.ResponseWriter
	status   int
	captured bool
	body     bytes.Buffer
}

func (w *errorCapture) WriteHeader(code int) {
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status, w.captured = code, true
		w.Header().Del("Content-Type")
		w.Header().Del("X-Content-Type-Options")
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *errorCapture) Write(b []byte) (int, error) {
	if w.captured {
		if w.body.Len() < 4096 {
			w.body.Write(b)
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}
