package egress

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAttackConfiguredURL: only http and https, no credentials, and every address of
// the host permitted; a name that does not resolve is the resolver's
// error, not a refusal.
//
// attack: ssrf-configured-url
func TestAttackConfiguredURL(t *testing.T) {
	dns := mustFakeDNS(t)
	dns.set("hooks.example.com", addrs("93.184.216.34", "2606:2800:220:1::1"))
	dns.set("internal.example.com", addrs("93.184.216.34", "fd00::5"))
	dns.set("dev.example.com", addrs("127.0.0.1"))
	p := Policy{Resolver: dns.resolver()}
	tests := []struct {
		name, url string
		want      string // "ok", "blocked", "dns" or "invalid"
	}{
		{"OKPublicName", "https://hooks.example.com/in?x=1", "ok"},
		{"OKPublicName.", "https://hooks.example.com./in", "ok"},
		{"OKPublicIP", "http://93.184.216.34:8080/", "ok"},
		{"OKPublicIPv6", "https://[2606:2800:220:1::1]/", "ok"},
		{"ErrOneInternalAddress", "https://internal.example.com/", "blocked"},
		{"ErrNameToLoopback", "https://dev.example.com/", "blocked"},
		{"ErrLocalhost", "http://localhost:9000/hook", "blocked"},
		{"ErrMetadata", "http://169.254.169.254/latest/meta-data/", "blocked"},
		{"ErrMappedMetadata", "http://[::ffff:169.254.169.254]/", "blocked"},
		{"ErrLinkLocalZone", "http://[fe80::1%25eth0]/", "blocked"},
		{"ErrPrivate", "https://10.1.2.3/", "blocked"},
		{"ErrNAT64", "https://[64:ff9b::a9fe:a9fe]/", "blocked"},
		{"ErrFTP", "ftp://hooks.example.com/in", "blocked"},
		{"ErrFile", "file:///etc/passwd", "blocked"},
		{"ErrGopher", "gopher://hooks.example.com:70/", "blocked"},
		{"ErrCredentials", "https://user:pw@hooks.example.com/in", "blocked"},
		{"ErrUnresolved", "https://nowhere.example.com/", "dns"},
		{"ErrNoHost", "https:///in", "invalid"},
		{"ErrNotAURL", "http://[::1/", "invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := p.CheckURL(ctx, tc.url)
			var dnsErr *net.DNSError
			got := "invalid"
			switch {
			case err == nil:
				got = "ok"
			case errors.Is(err, ErrBlocked):
				got = "blocked"
			case errors.As(err, &dnsErr):
				got = "dns"
			}
			if got != tc.want {
				t.Fatalf("CheckURL(%s) = %v (%s), want %s", tc.url, err, got, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("error echoes credentials: %v", err)
			}
		})
	}
	p.Allow = allow("127.0.0.0/8")
	if err := p.CheckURL(ctx, "https://dev.example.com/"); err != nil {
		t.Errorf("loopback allowed: %v", err)
	}
}

func TestParseAllow(t *testing.T) {
	ok := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"127.0.0.0/8,::1/128", []string{"127.0.0.0/8", "::1/128"}},
		{" 10.0.0.0/8 , 192.168.1.5 ", []string{"10.0.0.0/8", "192.168.1.5/32"}},
		{"fd00::1", []string{"fd00::1/128"}},
		{"::ffff:10.0.0.0/104", []string{"10.0.0.0/8"}},
		{"::ffff:10.0.0.1", []string{"10.0.0.1/32"}},
	}
	for _, tc := range ok {
		got, err := ParseAllow(tc.in)
		if err != nil {
			t.Errorf("ParseAllow(%q): %v", tc.in, err)
			continue
		}
		var s []string
		for _, p := range got {
			s = append(s, p.String())
		}
		if diff := cmp.Diff(tc.want, s); diff != "" {
			t.Errorf("ParseAllow(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
	bad := []struct {
		in   string
		want []string // every one must appear in the error
	}{
		{"10.0.0.0/33", []string{`entry 1 "10.0.0.0/33"`, "not a CIDR prefix"}},
		{"10.0.0.1/8", []string{`"10.0.0.1/8"`, "did you mean 10.0.0.0/8?"}},
		{"localhost", []string{`"localhost"`, "not an IP address"}},
		{"127.0.0.0/8,,::1", []string{"entry 2", "empty"}},
		{"fe80::1%eth0", []string{"zones are not allowed"}},
		{"10.0.0.0/8, bogus, 1.2.3.4/40", []string{`entry 2 "bogus"`, `entry 3 "1.2.3.4/40"`}},
	}
	for _, tc := range bad {
		got, err := ParseAllow(tc.in)
		if err == nil {
			t.Errorf("ParseAllow(%q) = %v, want an error", tc.in, got)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseAllow(%q) error %q does not say %q", tc.in, err, w)
			}
		}
	}
	p, _ := ParseAllow("127.0.0.0/8")
	if err := (Policy{Allow: p}).check(netip.MustParseAddr("::ffff:127.0.0.1")); err != nil {
		t.Errorf("a parsed IPv4 prefix does not admit the mapped form: %v", err)
	}
}
