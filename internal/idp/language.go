package idp

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
)

// printer answers the language of a page (D-languages): the ui_locales of
// the login transaction the page belongs to, else the signed-in user's
// saved language, else the browser's Accept-Language, else English. Values
// that are too long or malformed are ignored (i18n bounds them).
func (p *core) printer(r *http.Request) *i18n.Printer {
	ctx := r.Context()
	var uiLocales, saved string
	id := r.URL.Query().Get("authRequestID")
	if id == "" && r.PostForm != nil {
		id = r.PostForm.Get("authRequestID")
	}
	if id != "" && len(id) <= 128 {
		if a, err := p.store.AuthRequest(ctx, id, p.now()); err == nil {
			uiLocales = a.UILocales
		}
	}
	if s := sessionFromContext(ctx); s != nil {
		if u, err := p.user(ctx, s.UserID); err == nil {
			saved = u.Locale
		}
	}
	return i18n.For(i18n.Match(i18n.UILocales(uiLocales), i18n.Saved(saved), i18n.AcceptLanguage(r.Header.Get("Accept-Language"))))
}

// trf translates a message with arguments for the page of r.
func (p *core) trf(r *http.Request, key string, args ...any) string {
	return p.printer(r).T(key, args...)
}

// passwordProblems are a refused password's problems (the details of
// CheckPassword's error) in pr's language.
func passwordProblems(pr *i18n.Printer, err error, min int) []string {
	var pe *platform.Error
	if !errors.As(err, &pe) || len(pe.Details) == 0 {
		return []string{pr.Text("The password does not meet the organization's rules.")}
	}
	out := make([]string, 0, len(pe.Details))
	for _, d := range pe.Details {
		switch {
		case strings.HasPrefix(d, "password must be at least"):
			out = append(out, pr.T("The password must have at least %d characters.", min))
		case strings.HasPrefix(d, "password must be at most"):
			out = append(out, pr.Text("The password must have at most 256 characters."))
		case strings.HasPrefix(d, "password is too common"):
			out = append(out, pr.Text("The password is too common or contains your e-mail address."))
		default:
			out = append(out, d)
		}
	}
	return out
}

// tr translates a message (an English catalog key) for the page of r.
func (p *core) tr(r *http.Request, key string) string {
	return p.printer(r).Text(key)
}

// mailLanguage is the language of an e-mail to u caused by the request of
// ctx (D-languages): u's saved language, else the request's.
func mailLanguage(ctx context.Context, u *platform.User) string {
	return i18n.ForMail(ctx, u.Locale)
}
