package egress

import (
	"errors"
	"net/netip"
	"testing"
)

// TestAttackAddressRanges: every special-purpose range is refused by the zero
// Policy, in IPv4, IPv6 and IPv4-mapped IPv6 forms, and public unicast
// addresses are not.
//
// attack: ssrf-address-ranges
func TestAttackAddressRanges(t *testing.T) {
	tests := []struct {
		addr   string
		reason string // "" for permitted
	}{
		{"93.184.216.34", ""},
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"2606:2800:220:1::1", ""},
		{"2a00:1450:4001:80b::200e", ""},
		{"::ffff:93.184.216.34", ""},
		{"172.32.0.1", ""},    // just past 172.16/12
		{"100.128.0.1", ""},   // just past 100.64/10
		{"169.255.0.1", ""},   // just past 169.254/16
		{"198.20.0.1", ""},    // just past 198.18/15
		{"11.0.0.1", ""},      // just past 10/8
		{"223.255.255.1", ""}, // last block before multicast

		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:7f00:1", "loopback"},
		{"10.0.0.1", "private"},
		{"10.255.255.255", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"::ffff:10.1.2.3", "private"},
		{"::ffff:192.168.0.1", "private"},
		{"169.254.169.254", "link-local"}, // cloud metadata
		{"::ffff:169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"febf:ffff::1", "link-local"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.255", "carrier-grade NAT"},
		{"fc00::1", "unique local"},
		{"fd12:3456:789a::1", "unique local"},
		{"fec0::1", "site-local"},
		{"64:ff9b::7f00:1", "NAT64"},                       // 127.0.0.1 through NAT64
		{"64:ff9b::a9fe:a9fe", "NAT64"},                    // 169.254.169.254 through NAT64
		{"64:ff9b:1::a00:1", "NAT64"},                      // local-use NAT64
		{"2002:7f00:1::1", "6to4"},                         // 127.0.0.1 in 6to4
		{"2002:a9fe:a9fe::1", "6to4"},                      // 169.254.169.254 in 6to4
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo"}, // Teredo, client 127.0.0.1 (inverted)
		{"2001:2::1", "benchmarking"},
		{"2001:10::1", "IETF protocol assignments"},
		{"2001:db8::1", "documentation"},
		{"3fff::1", "documentation"},
		{"192.0.2.1", "documentation"},
		{"198.51.100.1", "documentation"},
		{"203.0.113.1", "documentation"},
		{"192.0.0.8", "IETF protocol assignments"},
		{"192.88.99.1", "6to4 relay"},
		{"198.18.0.1", "benchmarking"},
		{"198.19.255.255", "benchmarking"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "this network"},
		{"::", "unspecified"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"ff05::1:3", "multicast"},
		{"::ffff:224.0.0.251", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"::ffff:255.255.255.255", "broadcast"},
		{"240.0.0.1", "reserved"},
		{"::7f00:1", "IPv4-compatible"},
		{"::ffff:0:7f00:1", "IPv4-translated"},
		{"100::1", "discard-only"},
		{"5f00::1", "not global unicast"},
		{"4000::1", "not global unicast"},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			err := Policy{}.check(netip.MustParseAddr(tc.addr))
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("refused a public address: %v", err)
				}
				return
			}
			var b *blockedError
			if !errors.As(err, &b) || !errors.Is(err, ErrBlocked) {
				t.Fatalf("check = %v, want refused (%s)", err, tc.reason)
			}
			if b.reason != tc.reason {
				t.Errorf("reason = %q, want %q", b.reason, tc.reason)
			}
		})
	}
}

// TestAllowPrefixes: an Allow prefix admits the special-purpose addresses
// it contains (also in mapped form) and nothing else; unspecified,
// multicast and broadcast addresses stay refused even under 0.0.0.0/0.
func TestAllowPrefixes(t *testing.T) {
	loop := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
	all := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}}
	tests := []struct {
		p    Policy
		addr string
		ok   bool
	}{
		{loop, "127.0.0.1", true},
		{loop, "127.9.9.9", true},
		{loop, "::1", true},
		{loop, "::ffff:127.0.0.1", true},
		{loop, "10.0.0.1", false},
		{loop, "169.254.169.254", false},
		{loop, "64:ff9b::7f00:1", false}, // loopback through NAT64 is not loopback here
		{loop, "0.0.0.0", false},
		{loop, "::", false},
		{all, "10.0.0.1", true},
		{all, "fd00::1", true},
		{all, "0.0.0.0", false},
		{all, "::", false},
		{all, "224.0.0.1", false},
		{all, "ff02::1", false},
		{all, "255.255.255.255", false},
	}
	for _, tc := range tests {
		err := tc.p.check(netip.MustParseAddr(tc.addr))
		if (err == nil) != tc.ok {
			t.Errorf("Allow %v: check(%s) = %v, want permitted %v", tc.p.Allow, tc.addr, err, tc.ok)
		}
	}
}
