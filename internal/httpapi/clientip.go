package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"unicode/utf8"
)

// ParsePrefixes parses a comma-separated list of CIDRs or single addresses
// (TRUSTED_PROXIES); every bad entry is named in the one error.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	var errs []error
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			if p != p.Masked() {
				errs = append(errs, fmt.Errorf("entry %d %q has host bits set (did you mean %s?)", i+1, f, p.Masked()))
				continue
			}
			out = append(out, p)
		} else if a, err := netip.ParseAddr(f); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		} else {
			errs = append(errs, fmt.Errorf("entry %d %q is neither a CIDR nor an address", i+1, f))
		}
	}
	return out, errors.Join(errs...)
}

type sourceKey struct{}

// source is where a request comes from: the client's address and its user agent.
type source struct{ ip, userAgent string }

// MaxUserAgent is the longest user agent kept for the audit log; a longer
// one is cut.
const MaxUserAgent = 512

// ClientAddress finds the address each request comes from and keeps it for
// ClientIP (and so for RateKey, the key of every per-address limit) and,
// with the request's user agent, for Source. A request's peer is the
// client unless the peer is one of the trusted proxies; then the client is
// the nearest address in Forwarded (RFC 7239), or else X-Forwarded-For,
// that is not itself a trusted proxy, read from the right: entries to the
// left of it were written by whoever sent the request and are not
// believed. With no trusted proxies the headers are ignored. An address an
// outer ClientAddress already found is kept.
func ClientAddress(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := r.Context().Value(sourceKey{}).(source); ok {
				next.ServeHTTP(w, r)
				return
			}
			src := source{ip: clientAddr(r, trusted), userAgent: cutUTF8(r.UserAgent(), MaxUserAgent)}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sourceKey{}, src)))
		})
	}
}

// ClientIP is the address a request comes from, as logs show it: the one
// ClientAddress found, or the peer's. Limits count by RateKey.
func ClientIP(r *http.Request) string {
	if s, ok := r.Context().Value(sourceKey{}).(source); ok {
		return s.ip
	}
	return peerIP(r)
}

// Source is where the request of ctx comes from, as ClientAddress found it:
// the client's address and user agent ("" outside a request).
func Source(ctx context.Context) (ip, userAgent string) {
	s, _ := ctx.Value(sourceKey{}).(source)
	return s.ip, s.userAgent
}

// cutUTF8 cuts s to at most n bytes, at a character's boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	peer := peerIP(r)
	addr, err := netip.ParseAddr(peer)
	if err != nil || !isTrusted(addr, trusted) {
		return peer
	}
	hops := forwardedFor(r.Header.Values("Forwarded"))
	if len(hops) == 0 {
		for _, v := range r.Header.Values("X-Forwarded-For") {
			for _, h := range strings.Split(v, ",") {
				hops = append(hops, strings.TrimSpace(h))
			}
		}
	}
	client := addr
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := parseHop(hops[i])
		if err != nil {
			break // a hop a trusted proxy could not name: the last one it could is the client
		}
		client = a
		if !isTrusted(a, trusted) {
			break
		}
	}
	return client.String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedFor returns the for= values of Forwarded headers, in order.
func forwardedFor(values []string) []string {
	var out []string
	for _, v := range values {
		for _, elem := range strings.Split(v, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") {
					out = append(out, strings.Trim(val, `"`))
				}
			}
		}
	}
	return out
}

// parseHop reads one hop: an address, with or without a port, IPv6 in
// brackets when it has one.
func parseHop(h string) (netip.Addr, error) {
	if ap, err := netip.ParseAddrPort(h); err == nil {
		return ap.Addr().Unmap(), nil
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	return a.Unmap(), err
}
