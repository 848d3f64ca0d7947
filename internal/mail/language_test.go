package mail

import (
	"strings"
	"testing"

	"github.com/platform/platform/internal/i18n"
)

var allKinds = []string{KindInvitation, KindReset, KindUnlock, KindVerify, KindOwnership, KindPasskey, KindSSOOnly,
	KindSignIn, KindSecondFactorReset}

// Every e-mail is written in the language of the message: in each language
// but English none of the English catalog's texts of more than three words
// is left, the HTML names its language, and the subject is translated.
func TestComposeEveryLanguage(t *testing.T) {
	t.Parallel()
	en := i18n.Catalogs["en"]
	for _, tag := range i18n.Supported[1:] {
		lang := tag.String()
		for _, kind := range allKinds {
			m := Message{Kind: kind, To: "ana@example.com", Org: "Acme", Name: "Ana", Link: "https://idp.example/x",
				Address: "new@example.com", Passkey: "Laptop", Change: "Your password was changed on your account page, and you were signed out everywhere else.",
				Lang: lang}
			b, err := Compose(m)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, kind, err)
			}
			english, _ := Compose(Message{Kind: kind, To: m.To, Org: m.Org, Name: m.Name, Link: m.Link, Address: m.Address,
				Passkey: m.Passkey, Change: m.Change})
			if b.Subject == english.Subject {
				t.Errorf("%s %s: subject %q not translated", lang, kind, b.Subject)
			}
			if !strings.Contains(b.HTML, `<html lang="`+lang+`">`) {
				t.Errorf("%s %s: html lang missing", lang, kind)
			}
			for _, v := range en {
				if len(strings.Fields(v)) > 3 && !strings.Contains(v, "%") &&
					(strings.Contains(b.Text, v) || strings.Contains(b.HTML, v) || strings.Contains(b.Subject, v)) {
					t.Errorf("%s %s: English text %q", lang, kind, v)
				}
			}
		}
	}
}

// A message of no language, or of one not supported, is written in English.
func TestComposeFallsBackToEnglish(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"", "xx", "<b>"} {
		b, err := Compose(Message{Kind: KindReset, To: "a@example.com", Org: "Acme", Link: "https://x", Lang: lang})
		if err != nil || b.Subject != "Reset your password for Acme" || !strings.Contains(b.HTML, `<html lang="en">`) {
			t.Errorf("%q: %q %v", lang, b.Subject, err)
		}
	}
}
