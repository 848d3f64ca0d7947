package domains

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"

	"github.com/platform/platform/internal/platform"
)

// MaxLength is the longest domain taken, in its ASCII form (RFC 1035).
const MaxLength = 253

// profile maps a domain as a lookup would (UTS #46: width and case folded,
// the ideographic full stops made dots), then checks it strictly: the
// labels' IDNA validity, the bidi rule, STD3 letters, digits and hyphens
// only, and the DNS lengths.
var profile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.ValidateLabels(true),
	idna.StrictDomainName(true),
	idna.VerifyDNSLength(true),
	idna.Transitional(false),
)

// reserved are names that never belong to a customer: special-use names
// (RFC 6761, RFC 6762) and the reverse-lookup tree.
var reserved = []string{"localhost", "local", "invalid", "arpa", "internal", "home.arpa", "onion"}

// Check answers the ASCII (A-label), lower-case form of a domain a customer
// claims, or EINVALID saying what is wrong: empty, longer than MaxLength, a
// wildcard, an IP address, a URL or address instead of a name, a single
// label, a reserved name, an all-numeric top label, or a name IDNA refuses
// (invalid punycode, disallowed characters, mixed directions).
func Check(raw string) (string, error) {
	d := strings.TrimSpace(raw)
	bad := func(why string) (string, error) {
		return "", platform.Errorf(platform.EINVALID, "domain %q is not a domain a customer may claim: %s", clip(d), why)
	}
	switch {
	case d == "":
		return "", platform.Errorf(platform.EINVALID, "domain is required")
	case len(d) > 4*MaxLength:
		return bad("too long")
	case strings.ContainsAny(d, "*"):
		return bad("wildcards are not allowed; claim the domain itself")
	case strings.ContainsAny(d, "/:@[]% \t\r\n\\?#"):
		return bad("give the name alone, without scheme, port, path or address")
	}
	if _, err := netip.ParseAddr(d); err != nil && !looksNumeric(d) {
		// a name, checked below
	} else {
		return bad("IP addresses are not allowed")
	}
	a, err := profile.ToASCII(d)
	if err != nil {
		return bad("not a valid internationalized domain name")
	}
	a = strings.ToLower(a)
	// A Unicode form that maps to the ASCII one must round-trip, so what is
	// shown is what is checked.
	if _, err := profile.ToUnicode(a); err != nil {
		return bad("not a valid internationalized domain name")
	}
	a = strings.TrimSuffix(a, ".") // the root, written or not
	labels := strings.Split(a, ".")
	top := labels[len(labels)-1]
	switch {
	case strings.Contains("."+a+".", ".."):
		return bad("a label is empty")
	case len(a) > MaxLength:
		return bad("longer than 253 characters")
	case len(labels) < 2:
		return bad("a single label is not a domain of its own")
	case looksNumeric(a) || isDigits(top):
		return bad("IP addresses are not allowed")
	}
	for _, r := range reserved {
		if a == r || strings.HasSuffix(a, "."+r) {
			return bad("a reserved name")
		}
	}
	return a, nil
}

// Display is the Unicode form of an ASCII domain for people to read, the
// ASCII form when it has none.
func Display(ascii string) string {
	u, err := idna.Lookup.ToUnicode(ascii)
	if err != nil {
		return ascii
	}
	return u
}

// looksNumeric reports a name every label of which is a number in some
// base (0x7f.1, 017.0.0.1, 2130706433): what inet_aton would take as an
// IPv4 address.
func looksNumeric(d string) bool {
	for _, l := range strings.Split(strings.TrimSuffix(d, "."), ".") {
		l = strings.ToLower(l)
		if strings.HasPrefix(l, "0x") {
			l = l[2:]
			if l == "" || strings.Trim(l, "0123456789abcdef") != "" {
				return false
			}
			continue
		}
		if !isDigits(l) {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// clip shortens what an error message repeats.
func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
