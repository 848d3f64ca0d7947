package console

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/web"
)

// The console app (internal/web/console/app, built into console/dist): one
// page for internal users under /dashboard and customer users under
// /portal, talking to /graphql with the token the callback page stored.
//
// Caching (D-console-caching): the build names each asset by a hash of its
// content, so an asset is served as immutable for a year, compressed once
// per process; the page, whose asset names change with every build, is
// revalidated on every load with its ETag and answers 304 when unchanged,
// so a second load transfers the page's headers and nothing else.

const appDir = "console/dist"

func loadAppShell() (string, error) {
	b, err := fs.ReadFile(web.FS, appDir+"/index.html")
	return string(b), err
}

// etag is a strong validator of parts.
func etag(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// appPage serves the app's page for every route under /dashboard and
// /portal; the router in the page picks the view. Mantine adds <style>
// elements for its variables, allowed by a nonce made per response, and
// sets CSS variables in style attributes (style-src-attr); scripts stay
// 'self' only. The page's validator covers everything but the nonce: a
// 304 sends no new policy, so the browser keeps the page it has with the
// policy of its nonce.
func (c *Console) appPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("ETag", c.appETag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Accept-Encoding")
	if matchesETag(r.Header.Get("If-None-Match"), c.appETag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	nonce := base64.RawStdEncoding.EncodeToString(b[:])
	page := strings.NewReplacer(
		"__CSP_NONCE__", nonce,
		"__ISSUER__", html.EscapeString(c.cfg.Issuer),
		"__CLIENT_ID__", html.EscapeString(c.cfg.ClientID),
	).Replace(c.appShell)
	// connect-src: the console's own APIs, and the provider, whose token
	// endpoint exchanges an impersonation's subject token (D-impersonation),
	// as the gateway's pages allow it
	httpapi.PageHeaders(w.Header(), "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-"+nonce+"'; "+
		"style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self' "+c.cfg.Issuer+"; "+
		"form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.Header().Set("Cache-Control", "no-cache") // revalidated (ETag), not kept from one load to the next unasked
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(page))
}

// matchesETag reports whether an If-None-Match header names tag (or *).
func matchesETag(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

// appFile is an asset of the build as it is and gzip-compressed.
type appFile struct {
	raw, gz  []byte
	etag     string
	mimeType string
}

// appFiles reads the build's assets and compresses each once per process.
var appFiles = sync.OnceValues(func() (map[string]*appFile, error) {
	entries, err := fs.ReadDir(web.FS, appDir+"/assets")
	if err != nil {
		return nil, err
	}
	out := make(map[string]*appFile, len(entries))
	for _, e := range entries {
		raw, err := fs.ReadFile(web.FS, appDir+"/assets/"+e.Name())
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(raw)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		f := &appFile{raw: raw, etag: etag(string(raw)), mimeType: mime.TypeByExtension(path.Ext(e.Name()))}
		if buf.Len() < len(raw) {
			f.gz = buf.Bytes()
		}
		out[e.Name()] = f
	}
	return out, nil
})

// appAsset serves a script, style sheet, image or font of the build:
// immutable (its name changes with its content), gzip-compressed for a
// client that accepts it.
func (c *Console) appAsset(w http.ResponseWriter, r *http.Request) {
	name := path.Base(chi.URLParam(r, "file"))
	switch path.Ext(name) {
	case ".js", ".css", ".svg", ".woff2":
	default:
		http.NotFound(w, r)
		return
	}
	files, err := appFiles()
	f := files[name]
	if err != nil || f == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Content-Type", f.mimeType)
	body, tag := f.raw, f.etag
	if f.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body, tag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gzip"`
	}
	h.Set("ETag", tag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether the request's Accept-Encoding accepts gzip.
func acceptsGzip(r *http.Request) bool {
	for _, enc := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(enc), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") || strings.TrimSpace(name) == "*" {
			q := strings.TrimSpace(params)
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
