package console

import (
	"crypto/rand"
	"encoding/base64"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/web"
)

// The console app (internal/web/console/app, built into console/dist): one
// page for internal users under /dashboard and customer users under
// /portal, talking to /graphql with the token the callback page stored.

const appDir = "console/dist"

func loadAppShell() (string, error) {
	b, err := fs.ReadFile(web.FS, appDir+"/index.html")
	return string(b), err
}

// appPage serves the app's page for every route under /dashboard and
// /portal; the router in the page picks the view. Mantine adds <style>
// elements for its variables, allowed by a nonce made per response, and
// sets CSS variables in style attributes (style-src-attr); scripts stay
// 'self' only.
func (c *Console) appPage(w http.ResponseWriter, r *http.Request) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	nonce := base64.RawStdEncoding.EncodeToString(b[:])
	page := strings.NewReplacer(
		"__CSP_NONCE__", nonce,
		"__ISSUER__", html.EscapeString(c.cfg.Issuer),
		"__CLIENT_ID__", html.EscapeString(c.cfg.ClientID),
	).Replace(c.appShell)
	httpapi.PageHeaders(w.Header(), "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-"+nonce+"'; "+
		"style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; "+
		"form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(page))
}

// appAsset serves the app's script and style sheet (names without hashes,
// so every response is revalidated).
func (c *Console) appAsset(w http.ResponseWriter, r *http.Request) {
	name := path.Base(chi.URLParam(r, "file"))
	switch path.Ext(name) {
	case ".js", ".css", ".svg", ".woff2":
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeFileFS(w, r, web.FS, appDir+"/assets/"+name)
}
