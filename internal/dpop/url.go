package dpop

import (
	"encoding/json"
	"net/url"
	"strings"
)

// NormalizeURL is u as htu compares it (RFC 9449 section 4.3, point 9;
// RFC 3986 section 6.2.2 and 6.2.3): scheme and host lower-cased, the
// scheme's default port dropped, an empty path "/", without query and
// fragment. ok is false for anything that is not an absolute http(s) URL.
func NormalizeURL(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || p.User != nil {
		return "", false
	}
	scheme := strings.ToLower(p.Scheme)
	if scheme != "https" && scheme != "http" {
		return "", false
	}
	host, port := strings.ToLower(p.Hostname()), p.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") { // an IPv6 literal
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	path := p.EscapedPath()
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + path, true
}

// SameURL reports whether a proof's htu names the URL want.
func SameURL(htu, want string) bool {
	a, ok1 := NormalizeURL(htu)
	b, ok2 := NormalizeURL(want)
	return ok1 && ok2 && a == b
}

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
