package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sources are the files whose texts the catalog holds: the page and e-mail
// templates (keys in t and strong calls) and the Go code that hands pages
// and e-mails their messages (keys as string literals).
var sources = []string{
	"../web/idp/*.html", "../web/mail/*.tmpl", "../web/mail/*.html", "../web/console/*.html", "../web/tenant/*.html",
	"../idp/*.go", "../mail/*.go", "../console/*.go", "../tenant/*.go",
}

func sourceText(t *testing.T) (templates, code string) {
	t.Helper()
	var tpl, src strings.Builder
	for _, pattern := range sources {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files for %s: %v", pattern, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(f, ".go") {
				src.Write(b)
			} else {
				tpl.Write(b)
			}
		}
	}
	return tpl.String(), src.String()
}

var templateKey = regexp.MustCompile(`(?:\{\{|\()(?:t|strong) "((?:[^"\\]|\\.)*)"`)

// Every language has exactly the English catalog's keys, each translated
// (not empty) with the same arguments.
func TestCatalogsComplete(t *testing.T) {
	t.Parallel()
	en := Catalogs["en"]
	if len(en) < 200 {
		t.Fatalf("the English catalog has %d keys", len(en))
	}
	for code, msgs := range Catalogs {
		for k := range en {
			v, ok := msgs[k]
			switch {
			case !ok:
				t.Errorf("%s: missing %q", code, k)
			case strings.TrimSpace(v) == "":
				t.Errorf("%s: empty %q", code, k)
			case argsOf(v) != argsOf(k):
				t.Errorf("%s: %q has arguments %q, the key %q", code, v, argsOf(v), argsOf(k))
			}
		}
		for k := range msgs {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: %q is not an English key", code, k)
			}
		}
	}
	for _, tag := range Supported[1:] {
		for k, v := range Catalogs[tag.String()] {
			if v == k && len(strings.Fields(k)) > 1 && !sameInTranslation[k] {
				t.Errorf("%s: %q is not translated", tag, k)
			}
		}
	}
}

// sameInTranslation are texts of several words that a language may write
// as English does.
var sameInTranslation = map[string]bool{"Code %s.": true, "Slug A–Z": true, "Slug Z–A": true, "Ref A–Z": true, "Ref Z–A": true}

var argPattern = regexp.MustCompile(`%(?:\[\d+\])?[sd]|\{\w+\}`)

// argsOf lists the arguments a message formats, each by its index and
// verb ("1s,2d"): "%s %d" and "%[2]d %[1]s" format the same ones.
func argsOf(s string) string {
	seen := map[string]bool{}
	i := 0
	for _, a := range argPattern.FindAllString(s, -1) {
		if strings.HasPrefix(a, "{") { // a page script's {name}
			seen[a] = true
			continue
		}
		verb := a[len(a)-1:]
		if strings.HasPrefix(a, "%[") {
			seen[a[2:strings.Index(a, "]")]+verb] = true
			continue
		}
		i++
		seen[strconv.Itoa(i)+verb] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// Every key is used: by a template's t or strong call, or as a string
// literal of the code that hands it to a page or an e-mail; and every text
// a template translates is a key.
func TestCatalogKeysUsed(t *testing.T) {
	t.Parallel()
	tpl, code := sourceText(t)
	used := map[string]bool{}
	for _, m := range templateKey.FindAllStringSubmatch(tpl, -1) {
		used[m[1]] = true
		if !Has(m[1]) {
			t.Errorf("a template translates %q, which the catalog lacks", m[1])
		}
	}
	for _, k := range Keys() {
		if used[k] {
			continue
		}
		if !strings.Contains(code, `"`+k+`"`) {
			t.Errorf("unused key %q", k)
		}
	}
}

var (
	action   = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	script   = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>`)
	tag      = regexp.MustCompile(`(?s)<[^>]*>`)
	entity   = regexp.MustCompile(`&[a-z]+;|&#\d+;`)
	words    = regexp.MustCompile(`\p{L}{2,}`)
	textAttr = regexp.MustCompile(`(?:alt|title|placeholder|aria-label)="([^"]*)"`)
	attrs    = regexp.MustCompile(`[\w-]+="[^"]*"`) // a fragment's attributes (tenant/messages.html)
)

// No page template shows text that is not translated: with its actions,
// tags, scripts and entities taken out, nothing that reads as a word is
// left, and its text attributes hold only actions.
func TestTemplatesHaveNoLiteralText(t *testing.T) {
	t.Parallel()
	for _, pattern := range []string{"../web/idp/*.html", "../web/mail/html.tmpl", "../web/mail/text.tmpl", "../web/mail/mailbox.html", "../web/console/*.html", "../web/tenant/*.html"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			for _, m := range textAttr.FindAllStringSubmatch(s, -1) {
				if w := words.FindString(action.ReplaceAllString(m[1], "")); w != "" {
					t.Errorf("%s: attribute %q is not translated", f, m[0])
				}
			}
			s = script.ReplaceAllString(s, "")
			s = action.ReplaceAllString(s, "")
			s = tag.ReplaceAllString(s, "")
			s = attrs.ReplaceAllString(s, "")
			s = entity.ReplaceAllString(s, "")
			for _, line := range strings.Split(s, "\n") {
				if w := words.FindString(line); w != "" {
					t.Errorf("%s: untranslated text %q", f, strings.TrimSpace(line))
				}
			}
		}
	}
}
