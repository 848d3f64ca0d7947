package idp

import (
	"net/http"

	"github.com/platform/platform/internal/i18n"
)

// PathAccountLanguage saves the language of the account's pages and e-mails.
const PathAccountLanguage = "/ui/account/language"

// languageOption is one language the account page offers, named in itself.
type languageOption struct{ Code, Name string }

// languageOptions lists the supported languages, each in its own words.
var languageOptions = []languageOption{{"en", "English"}, {"de", "Deutsch"}, {"fr", "Français"}, {"es", "Español"}, {"ja", "日本語"}}

// msgLanguageUnknown answers a language the pages are not written in.
const msgLanguageUnknown = "Choose one of the languages in the list."

// accountLanguage saves the signed-in user's language (D-languages): one of
// the supported codes, or "" for the browser's. Not a change of how the
// account signs in, so no recent confirmation is asked for.
func (p *accountPages) accountLanguage(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	code, valid := i18n.Valid(r.PostForm.Get("locale"))
	if !valid {
		p.renderAccount(w, r, http.StatusBadRequest, u, "", msgLanguageUnknown)
		return
	}
	if err := p.store.SetUserLocale(r.Context(), u.ID, code, p.now()); err != nil {
		p.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, PathAccount+"?done=language", http.StatusSeeOther)
}
