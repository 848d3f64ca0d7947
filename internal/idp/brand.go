package idp

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/store"
)

// brandView is the brand block of a page's header (D-branding): the
// organization's display name, its logo and the style sheet of its primary
// colour; the zero value is the platform's default look.
type brandView struct {
	Name     string
	LogoURL  string
	StyleURL string
}

// brandOf is the brand of organization orgID: the one of the customer
// whose organization it is, the default look for any other (the
// administrator organization, an unknown id) or when it cannot be read.
func (p *core) brandOf(ctx context.Context, orgID string) brandView {
	if orgID == "" {
		return brandView{}
	}
	b, err := p.store.OrgBranding(ctx, orgID)
	if err != nil {
		slog.WarnContext(ctx, "branding not read: the default look is shown", "org_id", orgID, "err", err)
		return brandView{}
	}
	return brandOfRow(b)
}

func brandOfRow(b *store.Branding) brandView {
	v := brandView{Name: b.DisplayName}
	if b.LogoSHA256 != "" {
		v.LogoURL = branding.LogoPath(b.LogoSHA256)
	}
	if branding.IsHexColor(b.PrimaryColor) {
		v.StyleURL = branding.StylePath(b.PrimaryColor)
	}
	return v
}

// immutable marks an answer named by its own content: cached for a year,
// never revalidated, never sniffed as another type.
func immutable(w http.ResponseWriter, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin") // e-mail clients and the console gateway load logos
}

// brandAssets serves the logos (from the store) and the colour style
// sheets (made from their names).
type brandAssets struct{ store *store.Store }

// routes serves the logos and the colour style sheets.
func (p brandAssets) routes(r chi.Router) {
	r.Get(branding.LogoPrefix+"{file}", p.serveLogo)
	r.Get(branding.StylePrefix+"{file}", serveBrandStyle)
}

// serveLogo answers a logo by the SHA-256 of its PNG; 404 for any other name.
func (p brandAssets) serveLogo(w http.ResponseWriter, r *http.Request) {
	sha, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".png")
	if !ok || !branding.IsLogoHash(sha) {
		http.NotFound(w, r)
		return
	}
	l, err := p.store.Logo(r.Context(), sha)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	immutable(w, "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(l.PNG)))
	_, _ = w.Write(l.PNG)
}

// serveBrandStyle answers the style sheet of a colour named by its six hex
// digits (branding.StyleSheet); 404 for any other name.
func serveBrandStyle(w http.ResponseWriter, r *http.Request) {
	hex, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".css")
	css, err := branding.StyleSheet("#" + hex)
	if !ok || err != nil || hex != strings.ToLower(hex) {
		http.NotFound(w, r)
		return
	}
	immutable(w, "text/css; charset=utf-8")
	_, _ = w.Write([]byte(css))
}
