package idp

import (
	"net/http"
	"strings"
)

// The account page inside the console's frame (D-account-frame): the
// console links to it with the page it was on (?back=/dashboard/users), and
// the account page leads back there and signs out to the console. back is
// a path only, appended to the configured ConsoleURL, so the link can lead
// nowhere else; it is kept in a cookie of its own for the page's posts and
// the redirects after them.

const (
	accountBackCookie = "idp_account_back"
	accountBackMax    = 512
)

// accountFrame is what the account page shows of the console: where "Back
// to the console" leads ("" when the user did not come from it) and what
// "Sign out" posts to end_session.
type accountFrame struct {
	Back          string
	ConsoleClient string
	SignedOut     string // the post-logout redirect URI: the console's start
}

// cleanBackPath answers p when it is a path of the console's own: one
// leading slash, no second slash or backslash after it (no scheme-relative
// address), no control characters, at most accountBackMax bytes.
func cleanBackPath(p string) (string, bool) {
	if p == "" || len(p) > accountBackMax || p[0] != '/' {
		return "", false
	}
	if len(p) > 1 && (p[1] == '/' || p[1] == '\\') {
		return "", false
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return "", false
		}
	}
	return p, true
}

// frame answers the account page's way back to the console: the back path
// of this request (kept in the cookie for the next ones) or the one kept.
func (p *accountPages) frame(w http.ResponseWriter, r *http.Request) accountFrame {
	console := strings.TrimSuffix(p.cfg.ConsoleURL, "/")
	if console == "" {
		return accountFrame{}
	}
	back, ok := cleanBackPath(r.URL.Query().Get("back"))
	if ok {
		http.SetCookie(w, &http.Cookie{Name: p.cookie(accountBackCookie), Value: back, Path: "/", HttpOnly: true,
			Secure: p.secure, SameSite: http.SameSiteLaxMode})
	} else if c, err := r.Cookie(p.cookie(accountBackCookie)); err == nil {
		back, ok = cleanBackPath(c.Value)
	}
	if !ok {
		return accountFrame{}
	}
	return accountFrame{Back: console + back, ConsoleClient: p.cfg.ConsoleClientID, SignedOut: console + "/"}
}
