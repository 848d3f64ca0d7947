package egress

import "net/netip"

// special is one special-purpose range and what it is, for messages.
type special struct {
	prefix netip.Prefix
	name   string
}

func ranges(name string, cidrs ...string) []special {
	out := make([]special, len(cidrs))
	for i, c := range cidrs {
		out[i] = special{netip.MustParsePrefix(c), name}
	}
	return out
}

// specials are the ranges refused unless an Allow prefix names them: the
// IANA IPv4 and IPv6 special-purpose registries, less the few entries that
// are globally reachable unicast. More specific entries come first so a
// message names the narrower range.
var specials = concat(
	ranges("broadcast", "255.255.255.255/32"),
	ranges("this network", "0.0.0.0/8"),
	ranges("loopback", "127.0.0.0/8", "::1/128"),
	ranges("private", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"),
	ranges("link-local", "169.254.0.0/16", "fe80::/10"),
	ranges("carrier-grade NAT", "100.64.0.0/10"),
	ranges("IETF protocol assignments", "192.0.0.0/24"),
	ranges("documentation", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"),
	ranges("6to4 relay", "192.88.99.0/24"),
	ranges("benchmarking", "198.18.0.0/15", "2001:2::/48"),
	ranges("multicast", "224.0.0.0/4", "ff00::/8"),
	ranges("reserved", "240.0.0.0/4"),
	ranges("IPv4-compatible", "::/96"),
	ranges("IPv4-translated", "::ffff:0:0:0/96"),
	ranges("NAT64", "64:ff9b::/96", "64:ff9b:1::/48"),
	ranges("discard-only", "100::/64"),
	// Teredo and 6to4 embed an IPv4 address that a tunnel on this host
	// would send the packets to; both are refused whole.
	ranges("Teredo", "2001::/32"),
	ranges("IETF protocol assignments", "2001::/23"),
	ranges("6to4", "2002::/16"),
	ranges("unique local", "fc00::/7"),
	ranges("site-local", "fec0::/10"),
)

// globalUnicast is the only IPv6 space assigned for global unicast; any
// other IPv6 address is refused even if no entry above names it.
var globalUnicast = netip.MustParsePrefix("2000::/3")

func concat(lists ...[]special) []special {
	var out []special
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// never are addresses no Allow prefix admits: they are not destinations,
// and on Linux a connection to 0.0.0.0 or :: reaches this host.
func never(a netip.Addr) string {
	switch {
	case a.IsUnspecified():
		return "unspecified"
	case a.IsMulticast():
		return "multicast"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	}
	return ""
}

// classify names the special-purpose range a holds, or "" for a public
// unicast address. a must be unmapped and without zone.
func classify(a netip.Addr) string {
	for _, s := range specials {
		if s.prefix.Contains(a) {
			return s.name
		}
	}
	if a.Is6() && !globalUnicast.Contains(a) {
		return "not global unicast"
	}
	return ""
}

// normalize drops an IPv6 zone and turns an IPv4-mapped IPv6 address into
// its IPv4 address, so ::ffff:127.0.0.1 is judged as 127.0.0.1.
func normalize(a netip.Addr) netip.Addr { return a.WithZone("").Unmap() }
