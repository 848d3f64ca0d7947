package idp

import (
	"net/netip"
	"strings"
)

// describeAgent names the browser and the system of a User-Agent for the
// account page's session list (D-your-sessions). It is a small parser of
// the tokens the major browsers send, checked in an order that respects
// how they imitate each other (Edge and Opera say Chrome, Chrome says
// Safari, iOS browsers say Safari and name themselves with a suffix):
// "Edg/", "OPR/", "SamsungBrowser/", "Firefox/" or "FxiOS/", "CriOS/" or
// "Chrome/", then "Safari/"; the system from "Windows", "iPhone"/"iPad",
// "Mac OS X", "Android", "CrOS", "Linux". Anything else is "Unknown
// browser" and "unknown system"; versions are left out (they say little
// and change every month).
func describeAgent(ua string) (browser, system string) {
	has := func(s string) bool { return strings.Contains(ua, s) }
	switch {
	case has("Edg/"), has("EdgA/"), has("EdgiOS/"):
		browser = "Edge"
	case has("OPR/"), has("Opera"):
		browser = "Opera"
	case has("SamsungBrowser/"):
		browser = "Samsung Internet"
	case has("Firefox/"), has("FxiOS/"):
		browser = "Firefox"
	case has("CriOS/"), has("Chrome/"), has("Chromium/"):
		browser = "Chrome"
	case has("Safari/") && has("Version/"):
		browser = "Safari"
	default:
		browser = "Unknown browser"
	}
	switch {
	case has("Windows"):
		system = "Windows"
	case has("iPhone"), has("iPad"), has("iPod"):
		system = "iOS"
	case has("Android"):
		system = "Android"
	case has("Mac OS X"), has("Macintosh"):
		system = "macOS"
	case has("CrOS"):
		system = "ChromeOS"
	case has("Linux"):
		system = "Linux"
	default:
		system = "unknown system"
	}
	return browser, system
}

// networkOf is the approximate place of a client address that the account
// page shows (D-your-sessions): its network, an IPv4 address's /24 and an
// IPv6 address's /48, worked out here with no outside service; "" for an
// address that does not parse.
func networkOf(address string) string {
	a, err := netip.ParseAddr(address)
	if err != nil {
		if ap, err := netip.ParseAddrPort(address); err == nil {
			a = ap.Addr()
		} else {
			return ""
		}
	}
	a = a.Unmap()
	bits := 48
	if a.Is4() {
		bits = 24
	}
	p, err := a.WithZone("").Prefix(bits)
	if err != nil {
		return ""
	}
	return p.String()
}
