package idp

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
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

// brands finds the brand of a page (D-branding): from the organization
// the page is for, its user, or the login transaction it carries.
type brands struct{ *core }

// brands is the part that finds a page's brand.
func (p *core) brands() brands { return brands{p} }

// ofOrg is the brand of organization orgID: the one of the customer
// whose organization it is, the default look for any other (the
// administrator organization, an unknown id) or when it cannot be read.
func (p brands) ofOrg(ctx context.Context, orgID string) brandView {
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

// ofUser is the brand of a user's organization; the default look when
// the user cannot be read.
func (p brands) ofUser(ctx context.Context, userID string) brandView {
	u, err := p.user(ctx, userID)
	if err != nil {
		return brandView{}
	}
	return p.ofOrg(ctx, u.OrgID)
}

// ofTransaction is the brand of a login transaction's page once its
// user is known: the organization of its org scope, as on the sign-in page
// (nameCard), else the user's own.
func (p brands) ofTransaction(ctx context.Context, a *store.AuthRequest, userOrgID string) brandView {
	if org := orgScope(a.Scopes); org != "" {
		return p.ofOrg(ctx, org)
	}
	return p.ofOrg(ctx, userOrgID)
}

// ofPage is the brand of a page that names no user of its own (the
// forgot-password form, the device flow's code form, the error page): the
// organization of the org scope of the login transaction the page carries
// (authRequestID in its query or its posted form, which names no more
// than the sign-in page's address already shows), else the signed-in
// user's; the default look when neither is known. A typed address never
// chooses the brand: that would tell whose account it is.
func (p brands) ofPage(r *http.Request) brandView {
	ctx := r.Context()
	if org := p.requestOrgScope(r); org != "" {
		return p.ofOrg(ctx, org)
	}
	if s := sessionFromContext(ctx); s != nil {
		return p.ofUser(ctx, s.UserID)
	}
	return brandView{}
}

// ofUserPage is the brand of a page of user u's: the org scope of the
// login transaction the page carries, else u's organization.
func (p brands) ofUserPage(r *http.Request, u *platform.User) brandView {
	if org := p.requestOrgScope(r); org != "" {
		return p.ofOrg(r.Context(), org)
	}
	return p.ofOrg(r.Context(), u.OrgID)
}

// requestOrgScope is the org scope of the login transaction named by the
// request's authRequestID (query, or a form already parsed), or "".
func (p brands) requestOrgScope(r *http.Request) string {
	id := r.URL.Query().Get("authRequestID")
	if id == "" && r.PostForm != nil {
		id = r.PostForm.Get("authRequestID")
	}
	if id == "" || len(id) > 64 {
		return ""
	}
	a, err := p.store.AuthRequest(r.Context(), id, p.now())
	if err != nil {
		return ""
	}
	return orgScope(a.Scopes)
}
