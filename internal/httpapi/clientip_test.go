package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The client address comes from forwarding headers only through trusted
// proxies; whatever a client writes into them itself is not believed.
// attack: spoofed-forwarded-for
func TestAttackClientAddress(t *testing.T) {
	trusted, err := ParsePrefixes("10.0.0.0/8, 192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, peer, xff, forwarded, want string
	}{
		{"NoProxy", "203.0.113.5:1234", "", "", "203.0.113.5"},
		{"ErrSpoofFromUntrustedPeer", "203.0.113.5:1234", "198.51.100.1", "", "203.0.113.5"},
		{"ErrSpoofForwardedFromUntrustedPeer", "203.0.113.5:1234", "", "for=198.51.100.1", "203.0.113.5"},
		{"OneTrustedProxy", "10.1.2.3:80", "198.51.100.1", "", "198.51.100.1"},
		{"ErrSpoofBehindTrustedProxy", "10.1.2.3:80", "6.6.6.6, 198.51.100.1", "", "198.51.100.1"},
		{"TwoTrustedHops", "10.1.2.3:80", "198.51.100.1, 192.0.2.7", "", "198.51.100.1"},
		{"SeveralHeaders", "10.1.2.3:80", "", "", "198.51.100.9"},
		{"Forwarded", "10.1.2.3:80", "6.6.6.6", `for=198.51.100.2;proto=https, for="[2001:db8::1]:4711"`, "2001:db8::1"},
		{"ForwardedWithPort", "10.1.2.3:80", "", `for="198.51.100.3:8080"`, "198.51.100.3"},
		{"ErrGarbageHop", "10.1.2.3:80", "198.51.100.1, not-an-ip", "", "10.1.2.3"},
		{"ErrHiddenForwarded", "10.1.2.3:80", "", "for=_hidden", "10.1.2.3"},
		{"AllTrusted", "10.1.2.3:80", "10.9.9.9", "", "10.9.9.9"},
		{"MappedPeer", "[::ffff:10.1.2.3]:80", "198.51.100.4", "", "198.51.100.4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.peer
			if tc.xff != "" {
				r.Header.Set("X-Forwarded-For", tc.xff)
			}
			if tc.name == "SeveralHeaders" {
				r.Header.Add("X-Forwarded-For", "6.6.6.6")
				r.Header.Add("X-Forwarded-For", "198.51.100.9")
			}
			if tc.forwarded != "" {
				r.Header.Set("Forwarded", tc.forwarded)
			}
			var got string
			ClientAddress(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = ClientIP(r) })).
				ServeHTTP(httptest.NewRecorder(), r)
			if got != tc.want {
				t.Fatalf("client = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("ErrNoTrustedProxies", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr, r.Header["X-Forwarded-For"] = "127.0.0.1:1", []string{"198.51.100.1"}
		var got string
		ClientAddress(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = ClientIP(r) })).
			ServeHTTP(httptest.NewRecorder(), r)
		if got != "127.0.0.1" {
			t.Fatalf("without trusted proxies the header counted: %q", got)
		}
	})
}

func TestParsePrefixes(t *testing.T) {
	got, err := ParsePrefixes(" 10.0.0.0/8,,::1, 192.0.2.7 ")
	if err != nil || len(got) != 3 || got[1].String() != "::1/128" || got[2].String() != "192.0.2.7/32" {
		t.Fatalf("ParsePrefixes = %v, %v", got, err)
	}
	_, err = ParsePrefixes("10.0.0.1/8, nonsense")
	if err == nil || !strings.Contains(err.Error(), "did you mean 10.0.0.0/8") || !strings.Contains(err.Error(), `"nonsense"`) {
		t.Fatalf("errors not named: %v", err)
	}
}

// RateKey counts an IPv4 client by its address and an IPv6 client by its
// /64, through the client address ClientAddress found; what it cannot
// parse it counts as it is.
func TestRateKey(t *testing.T) {
	for _, tc := range []struct{ peer, want string }{
		{"203.0.113.5:1", "203.0.113.5"},
		{"[::ffff:203.0.113.5]:1", "203.0.113.5"},
		{"[2001:db8:1:2:3:4:5:6]:1", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::]:1", "2001:db8:1:2::/64"},
		{"[fe80::1%eth0]:1", "fe80::/64"},
		{"pipe", "pipe"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tc.peer
		var got, logged string
		ClientAddress(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got, logged = RateKey(r), ClientIP(r) })).
			ServeHTTP(httptest.NewRecorder(), r)
		if got != tc.want {
			t.Errorf("RateKey(%s) = %q, want %q", tc.peer, got, tc.want)
		}
		if tc.peer == "[2001:db8:1:2:3:4:5:6]:1" && logged != "2001:db8:1:2:3:4:5:6" {
			t.Errorf("ClientIP, which logs show, = %q; want the whole address", logged)
		}
	}
}
