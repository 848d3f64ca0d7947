package i18n

import (
	"strings"
	"testing"
	"time"
)

// The choice takes ui_locales first, then the saved language, then
// Accept-Language, then English.
//
// spec: D-languages
func TestMatchOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ui, saved, accept, want string
	}{
		{"", "", "", "en"},
		{"de", "fr", "es", "de"},
		{"", "fr", "es", "fr"},
		{"", "", "es-MX,es;q=0.9,en;q=0.5", "es"},
		{"zh ja", "", "", "ja"},     // the first supported of the list
		{"de-CH", "", "", "de"},     // a region of a supported language
		{"zh", "", "fr-CA", "fr"},   // none supported: the next choice
		{"", "xx", "ja-JP", "ja"},   // a saved value no longer supported
		{"", "", "zh-TW, ko", "en"}, // nothing supported at all
	} {
		got := Match(UILocales(c.ui), Saved(c.saved), AcceptLanguage(c.accept)).String()
		if got != c.want {
			t.Errorf("Match(%q, %q, %q) = %s, want %s", c.ui, c.saved, c.accept, got, c.want)
		}
	}
}

// The ui_locales and Accept-Language values that are huge, list too many entries,
// are malformed or carry markup or header breaks are ignored as a whole; what
// is chosen is always a supported code.
//
// attack: language-input
func TestAttackLanguageInputBounded(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		strings.Repeat("de ", 200),               // too long
		strings.Repeat("x ", 20) + "de",          // too many entries
		"de\r\nSet-Cookie: x=1",                  // a header break
		`"><script>alert(1)</script>`,            // markup
		"de-" + strings.Repeat("a", 300),         // an oversized tag
		"\x00de",                                 // a control character
		strings.Repeat("de,", MaxEntries) + "fr", // too many Accept-Language entries
		"de;q=abc",                               // a malformed weight
		"ja-" + strings.Repeat("x-", 100) + "y",  // a tag of many parts
	} {
		for _, c := range []Choice{UILocales(v), AcceptLanguage(v), Saved(v)} {
			got := Match(c)
			if got != English {
				t.Errorf("%q chose %s", v, got)
			}
			if Pick(c) != "" {
				t.Errorf("%q was kept as %q", v, Pick(c))
			}
		}
	}
	// a well-formed header at the bound still works
	ok := "fr" + strings.Repeat(" ", MaxHeader-2)
	if got := Match(AcceptLanguage(ok)); got != French {
		t.Errorf("a header of %d bytes chose %s", len(ok), got)
	}
}

func TestValid(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{"": true, "de": true, "ja": true, "en": true, "de-DE": false, "xx": false, "<b>": false} {
		if _, ok := Valid(in); ok != want {
			t.Errorf("Valid(%q) = %v", in, ok)
		}
	}
}

// Dates are written the way each language writes them.
func TestDate(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 7, 14, 5, 0, 0, time.UTC)
	for tag, want := range map[string]string{
		"en": "7 Mar 2026, 14:05 UTC", "de": "07.03.2026, 14:05 UTC", "fr": "07/03/2026 14:05 UTC",
		"es": "07/03/2026 14:05 UTC", "ja": "2026年3月7日 14:05 UTC",
	} {
		if got := For(Match(Saved(tag))).Date(at); got != want {
			t.Errorf("%s: %q, want %q", tag, got, want)
		}
	}
}

// Strong escapes the message and its argument and emphasises the argument
// wherever the language puts it.
func TestStrong(t *testing.T) {
	t.Parallel()
	got := string(For(Japanese).Strong("Use %s to sign in from now on, instead of %s.", "verify-address", "<new>@x", "old@x"))
	want := `今後は old@x ではなく <strong id="verify-address">&lt;new&gt;@x</strong> でサインインします。`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := For(German).T("Sign in with %s", "Okta"); got != "Mit Okta anmelden" {
		t.Errorf("German T: %q", got)
	}
}
