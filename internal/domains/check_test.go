package domains

import (
	"strings"
	"testing"

	"github.com/platform/platform/internal/platform"
)

// A claimable domain is a public name of two labels or more, kept in its
// ASCII form: Unicode names become their A-labels, case and width fold,
// one trailing root dot goes.
func TestCheckAccepts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"example.com":                    "example.com",
		"  Example.COM ":                 "example.com",
		"example.com.":                   "example.com",
		"bücher.example":                 "xn--bcher-kva.example",
		"xn--bcher-kva.example":          "xn--bcher-kva.example",
		"ＥＸＡＭＰＬＥ．ｃｏｍ":                    "example.com", // full-width letters and full stop
		"mail.eu.acme.example":           "mail.eu.acme.example",
		"a-b.co":                         "a-b.co",
		strings.Repeat("a", 63) + ".com": strings.Repeat("a", 63) + ".com",
	} {
		got, err := Check(in)
		if err != nil || got != want {
			t.Errorf("Check(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Malformed and dangerous domains are refused with EINVALID before
// anything is stored or looked up: wildcards, IP addresses in any of the
// forms a resolver takes, single labels and reserved names (localhost and
// its subdomains), URLs and addresses instead of names, IDNA tricks
// (invalid punycode, disallowed code points, mixed directions, zero-width
// joiners), and names past the DNS lengths.
//
// attack: malformed-domain
func TestAttackMalformedDomains(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", " ", "*.example.com", "*", "example.*",
		"127.0.0.1", "10.0.0.1", "::1", "[::1]", "2130706433", "0x7f.0.0.1", "017.0.0.1", "1.2.3", "example.123",
		"localhost", "LOCALHOST", "localhost.", "app.localhost", "printer.local", "x.invalid", "1.0.0.127.in-addr.arpa", "svc.internal",
		"com", "intranet",
		"https://example.com", "example.com/path", "example.com:443", "user@example.com", "exa mple.com", "example..com", ".example.com",
		"xn--zz.example",               // invalid punycode
		"xn--bcher-kva.xn--",           // empty A-label
		"ex\u200dample.com",            // zero-width joiner
		"exa\u0000mple.com",            // NUL
		"\u05d0\u0061.example",         // a right-to-left letter and a left-to-right one in one label
		"-example.com", "example-.com", // hyphens at the ends of a label
		"ex_ample.com",                           // not a host name
		strings.Repeat("a", 64) + ".com",         // label past 63
		strings.Repeat("abcdefghi.", 26) + "com", // name past 253
	} {
		if got, err := Check(in); platform.ErrorCode(err) != platform.EINVALID {
			t.Errorf("Check(%q) = %q, %v; want EINVALID", in, got, err)
		}
	}
}
