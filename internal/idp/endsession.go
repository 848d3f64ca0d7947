package idp

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// endSessionParams are the RP-Initiated Logout parameters the confirmation
// form carries on to the op library.
var endSessionParams = []string{"id_token_hint", "post_logout_redirect_uri", "state", "client_id", "logout_hint", "ui_locales"}

// autoSubmit is the one script of the provider's pages (written out in
// logout.html, allowed by its hash): it posts the sign-out confirmation when
// the request proved whose session it ends.
const autoSubmit = `document.getElementById("logout").submit();`

var autoSubmitHash = func() string {
	sum := sha256.Sum256([]byte(autoSubmit))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

type logoutView struct {
	Email  string
	CSRF   string
	Params []logoutParam
	Auto   bool
	Brand  brandView // the signed-in user's organization (D-branding)
}

type logoutParam struct{ Name, Value string }

// endSessionPage answers GET end_session. A browser with a provider session
// is asked to confirm with a POST that carries a CSRF token, so a link or an
// image cannot sign anyone out; the form submits itself when the request's
// id_token_hint is a valid token of the session's user. Without a session
// there is nothing to end: the op library validates the request and
// redirects.
func (p *loginPages) endSessionPage(w http.ResponseWriter, r *http.Request) {
	s := sessionFromContext(r.Context())
	if s == nil {
		p.op.ServeHTTP(w, r)
		return
	}
	q := r.URL.Query()
	v := logoutView{CSRF: p.newCSRF(w)}
	for _, name := range endSessionParams {
		if val := q.Get(name); val != "" {
			if len(val) > 8192 {
				p.renderError(w, r, http.StatusBadRequest, "Invalid request", "The sign-out request is too large.")
				return
			}
			v.Params = append(v.Params, logoutParam{Name: name, Value: val})
		}
	}
	if u, err := p.user(r.Context(), s.UserID); err == nil {
		v.Email, v.Brand = u.Email, p.brands().ofOrg(r.Context(), u.OrgID)
	}
	if hint := q.Get("id_token_hint"); hint != "" {
		ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
		claims, err := op.VerifyIDTokenHint[*oidc.IDTokenClaims](ctx, hint, p.op.IDTokenHintVerifier(ctx))
		v.Auto = err == nil && claims.GetSubject() == s.UserID
	}
	p.renderPage(w, r, http.StatusOK, "logout.html", v, v.Auto)
}

// endSessionSubmit ends this browser's provider session, whoever the
// id_token_hint names (D-logout), and tells the applications that receive
// back-channel logouts, then lets the op library validate the
// request and redirect to the post-logout URI.
func (p *loginPages) endSessionSubmit(w http.ResponseWriter, r *http.Request) {
	if !p.postedForm(w, r, "Your session on this page has ended. Go back to the application and sign out again.") {
		return
	}
	if s := sessionFromContext(r.Context()); s != nil {
		if err := p.endSession(r.Context(), s, endedSignOut); err != nil {
			p.internalError(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: p.cookie(SessionCookie), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: p.secure, SameSite: http.SameSiteLaxMode, Expires: time.Unix(0, 0)})
	r.PostForm.Del("csrf")
	r.Form.Del("csrf")
	p.op.ServeHTTP(w, r)
}
