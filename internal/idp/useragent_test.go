package idp

import "testing"

func TestDescribeAgent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ua, browser, system string }{
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", "Edge", "Windows"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15", "Safari", "macOS"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1", "Chrome", "iOS"},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox", "Linux"},
		{"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0 Mobile Safari/537.36", "Samsung Internet", "Android"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36", "Chrome", "Linux"},
		{"curl/8.4.0", "Unknown browser", "unknown system"},
		{"", "Unknown browser", "unknown system"},
	} {
		if b, s := describeAgent(c.ua); b != c.browser || s != c.system {
			t.Errorf("%q: %s on %s, want %s on %s", c.ua, b, s, c.browser, c.system)
		}
	}
}

func TestNetworkOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"203.0.113.77": "203.0.113.0/24", "2001:db8:1234:5678::1": "2001:db8:1234::/48",
		"::ffff:198.51.100.9": "198.51.100.0/24", "198.51.100.9:4433": "198.51.100.0/24", "": "", "nonsense": ""} {
		if got := networkOf(in); got != want {
			t.Errorf("networkOf(%q) = %q, want %q", in, got, want)
		}
	}
}
