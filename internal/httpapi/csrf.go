package httpapi

import (
	"net/http"
	"net/url"
)

// CSRFHeader is the header a role's own scripts send with every unsafe
// request. A form another site posts cannot carry it, and a script of
// another origin cannot send it without a CORS preflight the roles never
// grant.
const CSRFHeader = "X-Requested-With"

// Origin is the scheme and host of base ("" when base is not an absolute
// URL): the origin a role's own pages are served from.
func Origin(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// FromOwnPages reports whether r, an unsafe request signed in by a cookie,
// comes from the pages of origin: its Origin (or, without one, its
// Referer) is origin, or it names no other origin and carries CSRFHeader.
func FromOwnPages(r *http.Request, origin string) bool {
	from := r.Header.Get("Origin")
	if from == "" || from == "null" {
		if ref, err := url.Parse(r.Header.Get("Referer")); err == nil && ref.Host != "" {
			from = ref.Scheme + "://" + ref.Host
		}
	}
	same := from != "" && origin != "" && from == origin
	foreign := from != "" && from != "null" && !same
	return same || (!foreign && r.Header.Get(CSRFHeader) != "")
}
