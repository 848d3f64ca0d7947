package httpapi

import (
	"net/http"
	"net/netip"
)

// ipv6LimitBits is how much of an IPv6 address one client is counted by: a
// /64 is one subscriber's network (RFC 6177), inside which any host picks
// new addresses at will.
const ipv6LimitBits = 64

// RateKey is the key every per-address limit counts a request under: the
// client's IPv4 address (an IPv4-mapped IPv6 address is its IPv4 address),
// or the /64 network of its IPv6 address, so a client cannot escape a limit
// by walking the addresses of its own network. Logs keep the address
// itself (ClientIP).
func RateKey(r *http.Request) string {
	return rateKey(ClientIP(r))
}

func rateKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.Prefix(ipv6LimitBits)
	if err != nil {
		return ip
	}
	return p.String()
}
