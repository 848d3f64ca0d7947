package idp

import "github.com/platform/platform/internal/httpapi"

// cookie is the name a cookie of the provider (bindingCookie,
// SessionCookie, csrfCookie) has in browsers: prefixed __Host- when the
// issuer is https (each is set Secure, with Path=/ and no Domain), plain
// under http (httpapi.CookieName decides).
func (p *core) cookie(name string) string { return httpapi.CookieName(name, p.secure) }
