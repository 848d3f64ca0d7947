package httpapi

// hostPrefix marks a cookie the browser keeps only when it is Secure, has
// Path=/ and no Domain (RFC 6265bis section 4.1.3.2): no sibling subdomain
// nor plain-HTTP page can set or shadow it.
const hostPrefix = "__Host-"

// CookieName is the one decision of a cookie's name: under https (secure)
// name with the __Host- prefix, so every cookie of the platform is Secure,
// Path=/ and host-only; under http (local development, where browsers
// refuse the prefix without Secure) name as it is.
func CookieName(name string, secure bool) string {
	if secure {
		return hostPrefix + name
	}
	return name
}
