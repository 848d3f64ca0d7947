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
func (p *core) errorPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if held := holdAnswer(w, r, next, plainError); held != nil {
			msg := strings.TrimSpace(held.body.String())
			if msg == "" || len(msg) > 500 {
				msg = p.tr(r, "The request could not be processed.")
			}
			p.renderError(w, r, held.status, "This sign-in request is not valid", msg+" "+p.tr(r, "Go back to the application and try again."))
		}
	})
}

// heldAnswer holds back the answer of a handler when hold picks its status
// and headers, so that the caller answers in its place: the headers that
// describe the held body are dropped, and up to 4 KiB of it is kept.
type heldAnswer struct {
	http.ResponseWriter
	hold     func(code int, h http.Header) bool
	status   int
	captured bool
	body     bytes.Buffer
}

// holdAnswer serves r with next and answers what it held back, or nil when
// next answered by itself.
func holdAnswer(w http.ResponseWriter, r *http.Request, next http.Handler, hold func(code int, h http.Header) bool) *heldAnswer {
	hw := &heldAnswer{ResponseWriter: w, hold: hold}
	next.ServeHTTP(hw, r)
	if !hw.captured {
		return nil
	}
	return hw
}

func (w *heldAnswer) WriteHeader(code int) {
	if w.hold(code, w.Header()) {
		w.status, w.captured = code, true
		for _, h := range []string{"Content-Type", "X-Content-Type-Options", "Content-Length"} {
			w.Header().Del(h)
		}
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *heldAnswer) Write(b []byte) (int, error) {
	if w.captured {
		if w.body.Len() < 4096 {
			w.body.Write(b)
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// plainError picks the op library's plain-text errors; plainNotFound its
// bare "404 page not found".
func plainError(code int, h http.Header) bool {
	return code >= 400 && strings.HasPrefix(h.Get("Content-Type"), "text/plain")
}

func plainNotFound(code int, h http.Header) bool {
	return code == http.StatusNotFound && plainError(code, h)
}

// backURL is the way back the error pages offer: the console, where every
// sign-in of the platform starts.
func (p *core) backURL() string {
	if p.cfg.ConsoleURL != "" {
		return p.cfg.ConsoleURL + "/"
	}
	return ""
}

// notFoundPages answers the op library's bare "404 page not found" with the
// provider's styled page and a way back.
func (p *core) notFoundPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if holdAnswer(w, r, next, plainNotFound) != nil {
			p.renderError(w, r, http.StatusNotFound, "Page not found", "There is nothing at this address.")
		}
	})
}
