package branding

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/platform/platform/internal/platform"
)

// MaxNameLength bounds a display name and a sender name (characters).
const MaxNameLength = 100

// CleanName checks a display name or e-mail sender name (field names it in
// the message): at most MaxNameLength characters, no control characters
// (so no CR or LF: a header cannot be split), trimmed. "" is the default.
// EINVALID.
func CleanName(field, s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", platform.Errorf(platform.EINVALID, "%s must be UTF-8 text", field)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return "", platform.Errorf(platform.EINVALID, "%s must not contain line breaks or control characters", field)
		}
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxNameLength {
		return "", platform.Errorf(platform.EINVALID, "%s must be at most %d characters", field, MaxNameLength)
	}
	return s, nil
}

// ParseReplyTo checks a Reply-To address: one bare address that net/mail
// parses (no display name, no list), no CR or LF, at most 254 bytes. ""
// is none. EINVALID.
func ParseReplyTo(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if strings.ContainsAny(s, "\r\n") || len(s) > 254 {
		return "", platform.Errorf(platform.EINVALID, "mailReplyTo must be one e-mail address")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != strings.TrimSpace(s) || !strings.Contains(a.Address, "@") {
		return "", platform.Errorf(platform.EINVALID, "mailReplyTo must be one e-mail address, like support@example.com")
	}
	return a.Address, nil
}

// FromHeader is the From header of a customer's e-mail: the platform's
// address (from) with the customer's display name, or from alone when name
// is "". Both are checked again (net/mail; no CR or LF), so no header can
// be injected whatever reached the store.
func FromHeader(name, from string) (string, error) {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return "", err
	}
	if name != "" {
		if n, err := CleanName("sender name", name); err != nil {
			return "", err
		} else {
			a.Name = n
		}
	}
	return a.String(), nil
}
