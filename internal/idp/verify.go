package idp

import (
	"log/slog"
	"net/http"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// E-mail address change: the account page sends a confirmation link to the
// new address; the address becomes the user's (and so usable for sign-in
// and account linking) only when that link is confirmed (D-reset).
const (
	PathAccountEmail = "/ui/account/email"
	PathVerifyEmail  = mail.PathVerifyEmail
)

type verifyView struct {
	Org, Address, Current, Token, CSRF string
}

// accountEmail asks for a new address: the current password required
// where the account has one (and its organization signs in with it), and
// a recent proof (D-reauth; that password is the proof where it alone
// signs the account in). The link (7 days, single use) goes to the new
// address, and the current one is told. The answer is the same whether or
// not the organization already has the address.
func (p *accountPages) accountEmail(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	email := platform.NormalizeEmail(r.PostForm.Get("email"))
	if !platform.ValidEmail(email) || email == u.Email {
		p.renderAccount(w, r, http.StatusBadRequest, u, "", "Enter a new e-mail address.")
		return
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if policy.passwords() && u.PasswordHash != "" {
		if !p.proofOrPassword(w, r, u) {
			return
		}
	} else if !p.requireProof(w, r, u, PathAccount) {
		return
	}
	org := ""
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		org = o.Name
	}
	notice := p.signInNotice(ctx, u, "A change of your account's e-mail address to %s was asked for. It takes effect once the link sent to that address is opened; until then you sign in with this one.", email)
	token, hash := mail.NewToken()
	now := p.now()
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		err := tx.CreateAccountToken(ctx, &store.AccountToken{Hash: hash, Kind: store.TokenVerify, UserID: u.ID, Email: email,
			CreatedAt: now, ExpiresAt: now.Add(mail.VerifyLifetime)}, true)
		if err != nil {
			return err
		}
		if err := p.queueNotice(ctx, tx, notice); err != nil {
			return err
		}
		return (&mail.Outbox{Sealer: p.sealer, Now: p.now}).Queue(ctx, tx, mail.Message{Kind: mail.KindVerify, To: email,
			UserID: u.ID, CustomerID: p.customerOf(ctx, u.OrgID), Org: org, Name: u.Name, Address: email,
			Link: mail.Link(p.cfg.Issuer, PathVerifyEmail, token), Lang: mailLanguage(ctx, u)})
	})
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, PathAccount+"?done=email", http.StatusSeeOther)
}

// verifyPage shows what confirming the link does; opening it spends nothing.
func (p *accountPages) verifyPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	tok, u, ok := p.verifyLink(w, r, token)
	if !ok {
		return
	}
	v := verifyView{Address: tok.Email, Current: u.Email, Token: token, CSRF: p.newCSRF(w)}
	if o, err := p.store.Organization(r.Context(), u.OrgID); err == nil {
		v.Org = o.Name
	}
	p.render(w, r, http.StatusOK, "verify.html", v)
}

func (p *accountPages) verifyLink(w http.ResponseWriter, r *http.Request, token string) (*store.AccountToken, *platform.User, bool) {
	if token == "" || len(token) > 128 {
		p.renderError(w, r, http.StatusNotFound, "This link is not valid", msgLinkInvalid)
		return nil, nil, false
	}
	tok, err := p.store.AccountToken(r.Context(), mail.TokenHash(token), store.TokenVerify, p.now())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		p.renderError(w, r, http.StatusNotFound, "This link is not valid", msgLinkInvalid)
		return nil, nil, false
	} else if err != nil {
		p.internalError(w, r, err)
		return nil, nil, false
	}
	u, err := p.user(r.Context(), tok.UserID)
	if err != nil {
		p.internalError(w, r, err)
		return nil, nil, false
	}
	return tok, u, true
}

// verifySubmit confirms the new address once.
func (p *accountPages) verifySubmit(w http.ResponseWriter, r *http.Request) {
	if !p.postedForm(w, r, "Your session on this page has ended. Open the link from the e-mail again.") {
		return
	}
	ctx := r.Context()
	var tok *store.AccountToken
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		var err error
		if tok, err = tx.ConfirmEmail(ctx, mail.TokenHash(r.PostForm.Get("token")), p.now()); err != nil {
			return err
		}
		return p.record(ctx, tx, about(audit.EmailChanged, &platform.User{ID: tok.UserID}))
	})
	switch platform.ErrorCode(err) {
	case "":
	case platform.ENOTFOUND:
		p.renderError(w, r, http.StatusNotFound, "This link is not valid", msgLinkInvalid)
		return
	case platform.ECONFLICT:
		p.renderError(w, r, http.StatusConflict, "This address cannot be used",
			"Another account of your organization uses this address. Ask your administrator.")
		return
	default:
		p.internalError(w, r, err)
		return
	}
	slog.InfoContext(r.Context(), "e-mail address confirmed", "user_id", tok.UserID)
	p.render(w, r, http.StatusOK, "done.html", doneView{Title: "Your e-mail address is confirmed", Brand: p.brands().ofUser(r.Context(), tok.UserID),
		Message: p.trf(r, "Sign in with %s from now on.", tok.Email), Links: []doneLink{{Name: "Your account", URL: PathAccount}}})
}
