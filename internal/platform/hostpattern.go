package platform

import "strings"

// ValidHostName reports whether h is a DNS host name in lower case (labels
// of letters, digits and hyphens, not starting or ending with a hyphen, at
// most 253 characters) or an IPv4 address.
func ValidHostName(h string) bool {
	if h == "" || len(h) > 253 || strings.HasSuffix(h, ".") {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// HostAllowed reports whether host (lower case) is named by one of
// patterns: a host name equal to it, or "*.domain" naming any host under
// domain (not domain itself).
func HostAllowed(host string, patterns []string) bool {
	host = strings.ToLower(host)
	for _, p := range patterns {
		if d, ok := strings.CutPrefix(p, "*."); ok {
			if strings.HasSuffix(host, "."+d) {
				return true
			}
		} else if host == p {
			return true
		}
	}
	return false
}
