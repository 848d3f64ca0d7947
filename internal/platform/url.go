package platform

import (
	"net/netip"
	"net/url"
	"strings"
)

// The checks of URLs the platform is given (D-urls), each by what the URL
// is for. Each takes the name of the field for its message and answers
// EINVALID "<field> must …"; the lookup of a URL's addresses is the egress
// policy's (egress.CheckURL), made after these.

// IsLoopback reports whether host (a URL's Hostname, or a client address)
// names this machine: localhost or a name under .localhost (RFC 6761, in
// any case, with or without a trailing dot), an address in 127.0.0.0/8
// (also written as an IPv4-mapped IPv6 address) or ::1. Plain http is
// accepted only there.
func IsLoopback(host string) bool {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return err == nil && a.Unmap().IsLoopback()
}

// CheckRedirectURI checks a URI the identity provider sends a browser or a
// logout token to (an application's redirect, post-logout redirect and
// back-channel logout URIs): absolute http or https with a host, no
// fragment (RFC 6749 3.1.2).
func CheckRedirectURI(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !webScheme(u) || u.Host == "" || u.Fragment != "" {
		return Errorf(EINVALID, "%s must be an absolute http(s) URI without a fragment", field)
	}
	return nil
}

// CheckInstanceURL checks an instance's base URL: absolute http or https
// with a host, no credentials, query or fragment, at most 500 characters.
// Instances may run on internal networks, so plain http is accepted on any
// host.
func CheckInstanceURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !webScheme(u) || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || len(raw) > 500 {
		return Errorf(EINVALID, "%s must be an absolute http(s) address without query or fragment", field)
	}
	return nil
}

// CheckHTTPSOrLoopback checks a URL the platform calls with secrets or
// trusts the answers of (webhooks, external identity providers' issuers):
// absolute, at most 2,000 characters, no credentials or fragment, https,
// or http on a loopback host (IsLoopback).
func CheckHTTPSOrLoopback(field, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case raw == "" || len(raw) > 2000 || err != nil || u.Host == "" || u.Opaque != "":
		return Errorf(EINVALID, "%s must be an absolute https URL", field)
	case u.User != nil:
		return Errorf(EINVALID, "%s must not carry credentials", field)
	case u.Fragment != "":
		return Errorf(EINVALID, "%s must not carry a fragment", field)
	case u.Scheme == "https", u.Scheme == "http" && IsLoopback(u.Hostname()):
		return nil
	}
	return Errorf(EINVALID, "%s must use https (http only on localhost)", field)
}

// CheckOrigin checks the public address of one of the platform's own roles
// (ISSUER_URL, CONSOLE_URL, INSTANCE_URL): a bare origin, https, or http
// on a loopback host (IsLoopback), without path, query, fragment or a
// trailing slash.
func CheckOrigin(field, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return Errorf(EINVALID, "%s is not an absolute URL", field)
	case !webScheme(u):
		return Errorf(EINVALID, "%s must be http or https", field)
	case u.Scheme == "http" && !IsLoopback(u.Hostname()):
		return Errorf(EINVALID, "%s must be https (plain http is allowed for localhost only)", field)
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return Errorf(EINVALID, "%s must be a bare origin without path, query or fragment", field)
	case strings.HasSuffix(raw, "/"):
		return Errorf(EINVALID, "%s must not end with a slash", field)
	}
	return nil
}

func webScheme(u *url.URL) bool { return u.Scheme == "http" || u.Scheme == "https" }
