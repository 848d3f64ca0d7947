// Package i18n holds the languages of the platform's pages and e-mails
// (D-languages): the supported languages, the choice of one from what a
// request and a user ask for (bounded, malformed input ignored), the message
// catalogs (one embedded JSON file per language, keyed by the English text,
// read into a golang.org/x/text/message catalog) and dates formatted per
// language. No I/O beyond the embedded files.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Supported languages, English first: it is the fallback.
var (
	English  = language.English
	German   = language.German
	French   = language.French
	Spanish  = language.Spanish
	Japanese = language.Japanese

	// Supported lists every language the pages and e-mails are written in.
	Supported = []language.Tag{English, German, French, Spanish, Japanese}
)

// Limits on what a request may ask for: a longer value, or one with more
// entries, is ignored as a whole.
const (
	// MaxHeader bounds an Accept-Language header or a ui_locales value.
	MaxHeader = 256
	// MaxEntries bounds the languages one value lists.
	MaxEntries = 16
	// MaxTag bounds one language tag.
	MaxTag = 35
)

//go:embed locales/*.json
var files embed.FS

var (
	matcher = language.NewMatcher(Supported)
	cat     = catalog.NewBuilder(catalog.Fallback(English))
	keys    map[string]bool
	// Catalogs holds each language's messages as read from its file, by
	// the language's code (tests compare their keys).
	Catalogs = map[string]map[string]string{}
)

func init() {
	for _, tag := range Supported {
		b, err := files.ReadFile("locales/" + tag.String() + ".json")
		if err != nil {
			panic(err)
		}
		var msgs map[string]string
		if err := json.Unmarshal(b, &msgs); err != nil {
			panic(fmt.Sprintf("i18n: %s: %v", tag, err))
		}
		Catalogs[tag.String()] = msgs
		for k, v := range msgs {
			if err := cat.SetString(tag, k, v); err != nil {
				panic(err)
			}
		}
	}
	keys = map[string]bool{}
	for k := range Catalogs[English.String()] {
		keys[k] = true
	}
}

// Keys returns the catalog's keys, sorted.
func Keys() []string {
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Has reports whether key is a message of the catalog.
func Has(key string) bool { return keys[key] }

// Match returns the supported language that the first of the given choices
// names, in order (an OIDC ui_locales value, a saved preference, an
// Accept-Language header); choices that are empty, too long, malformed or
// name no supported language are skipped. English when none does.
func Match(choices ...Choice) language.Tag {
	for _, c := range choices {
		if tag, ok := c.match(); ok {
			return tag
		}
	}
	return English
}

// Pick returns the code of the supported language c names ("de", …), or ""
// when it names none: what a login transaction keeps of its ui_locales.
func Pick(c Choice) string {
	if tag, ok := c.match(); ok {
		return tag.String()
	}
	return ""
}

// Choice is one source of a language preference.
type Choice struct {
	value string
	parse func(string) []language.Tag
}

// UILocales is an OIDC ui_locales value: space-separated BCP 47 tags, the
// preferred first.
func UILocales(v string) Choice { return Choice{v, parseList(" ")} }

// Saved is a language a user saved (one tag).
func Saved(v string) Choice { return Choice{v, parseList(" ")} }

// AcceptLanguage is an HTTP Accept-Language header.
func AcceptLanguage(v string) Choice { return Choice{v, parseAccept} }

func (c Choice) match() (language.Tag, bool) {
	if c.value == "" || len(c.value) > MaxHeader || c.parse == nil {
		return language.Und, false
	}
	tags := c.parse(c.value)
	if len(tags) == 0 {
		return language.Und, false
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return language.Und, false
	}
	return Supported[i], true
}

func parseList(sep string) func(string) []language.Tag {
	return func(v string) []language.Tag {
		fields := strings.Split(v, sep)
		if len(fields) > MaxEntries {
			return nil
		}
		var tags []language.Tag
		for _, f := range fields {
			if f == "" || len(f) > MaxTag {
				continue
			}
			if t, err := language.Parse(f); err == nil {
				tags = append(tags, t)
			}
		}
		return tags
	}
}

func parseAccept(v string) []language.Tag {
	entries := strings.Split(v, ",")
	if len(entries) > MaxEntries {
		return nil
	}
	for _, e := range entries {
		tag, _, _ := strings.Cut(e, ";")
		if len(strings.TrimSpace(tag)) > MaxTag {
			return nil
		}
	}
	tags, _, err := language.ParseAcceptLanguage(v)
	if err != nil {
		return nil
	}
	return tags
}

// Valid returns the supported language a saved preference names exactly
// ("de", "ja", …) and reports whether it is one; "" is valid and means none.
func Valid(code string) (string, bool) {
	if code == "" {
		return "", true
	}
	for _, t := range Supported {
		if t.String() == code {
			return code, true
		}
	}
	return "", false
}

// Printer formats one language's messages.
type Printer struct {
	tag language.Tag
	p   *message.Printer
}

// For returns the printer of a language (English for one not supported).
func For(tag language.Tag) *Printer {
	_, i, conf := matcher.Match(tag)
	if conf == language.No {
		i = 0
	}
	t := Supported[i]
	return &Printer{tag: t, p: message.NewPrinter(t, message.Catalog(cat))}
}

// Lang is the language's BCP 47 code, for <html lang>.
func (p *Printer) Lang() string { return p.tag.String() }

// Tag is the printer's language.
func (p *Printer) Tag() language.Tag { return p.tag }

// Text translates the English text key, a message without arguments (one
// a page was handed, such as an error); a key the catalog lacks is
// answered as it is.
func (p *Printer) Text(key string) string {
	if v, ok := Catalogs[p.tag.String()][key]; ok {
		return v
	}
	return key
}

// T translates the English text key, formatting args into it (fmt verbs).
// A key the catalog lacks is answered as it is (the tests keep every
// shown text in the catalog).
func (p *Printer) T(key string, args ...any) string {
	if key == "" {
		return ""
	}
	if len(args) == 0 {
		return p.Text(key)
	}
	if !keys[key] {
		return fmt.Sprintf(key, args...)
	}
	return p.p.Sprintf(key, args...)
}

var monthsEN = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// Date formats a moment (in UTC) the way the language writes a date with
// its time: "2 Jan 2026, 15:04 UTC", "02.01.2026, 15:04 UTC",
// "02/01/2026 15:04 UTC", "2026年1月2日 15:04 UTC".
func (p *Printer) Date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	switch p.tag {
	case German:
		return t.Format("02.01.2006, 15:04") + " UTC"
	case French, Spanish:
		return t.Format("02/01/2006 15:04") + " UTC"
	case Japanese:
		return fmt.Sprintf("%d年%d月%d日 %s UTC", t.Year(), int(t.Month()), t.Day(), t.Format("15:04"))
	default:
		return fmt.Sprintf("%d %s %d, %s UTC", t.Day(), monthsEN[t.Month()-1], t.Year(), t.Format("15:04"))
	}
}
