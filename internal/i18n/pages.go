package i18n

import (
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"strings"
	"time"

	"golang.org/x/text/language"
)

// Pages is one set of HTML templates per supported language, each with the
// functions bound to its language:
//
//	lang                 the language's code, for <html lang>
//	t KEY ARGS…          the translated text (KEY is the English text)
//	strong KEY ID ARG …  the translated text with its first argument in
//	                     <strong> (with id ID unless it is ""), escaped
//	date TIME            a date and time written the language's way
type Pages map[language.Tag]*template.Template

// ParsePages parses the templates patterns names in fsys once per language.
func ParsePages(fsys fs.FS, patterns ...string) (Pages, error) {
	ps := Pages{}
	for _, tag := range Supported {
		pr := For(tag)
		t, err := template.New("").Funcs(Funcs(pr)).ParseFS(fsys, patterns...)
		if err != nil {
			return nil, err
		}
		ps[tag] = t
	}
	return ps, nil
}

// For returns the templates of a language, English for one not supported.
func (ps Pages) For(tag language.Tag) *template.Template {
	if t, ok := ps[tag]; ok {
		return t
	}
	return ps[English]
}

// Funcs returns the template functions of a printer's language.
func Funcs(pr *Printer) template.FuncMap {
	return template.FuncMap{
		"lang": pr.Lang,
		"t":    pr.T,
		"strong": func(key, id string, arg any, more ...any) template.HTML {
			return pr.Strong(key, id, arg, more...)
		},
		"date": func(t time.Time) string { return pr.Date(t) },
	}
}

// marker stands for the emphasised argument while the message is escaped.
const marker = "\x00"

// Strong translates key with args (arg first), escapes it and puts arg in
// <strong>, with the id id when it is not "".
func (p *Printer) Strong(key, id string, arg any, more ...any) template.HTML {
	msg := p.T(key, append([]any{marker}, more...)...)
	open := "<strong>"
	if id != "" {
		open = `<strong id="` + html.EscapeString(id) + `">`
	}
	val := html.EscapeString(strings.ReplaceAll(toString(arg), marker, ""))
	return template.HTML(strings.Replace(html.EscapeString(msg), marker, open+val+"</strong>", 1)) // every part escaped above
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
