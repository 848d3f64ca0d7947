package egress

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Defaults of a Policy's zero fields.
const (
	DefaultTimeout = 10 * time.Second
	DefaultMaxBody = 1 << 20 // 1 MiB
)

// Policy says where outbound requests may go and how much they may take.
// The zero Policy refuses every special-purpose address and uses the
// defaults; build its Client once and share it.
type Policy struct {
	// Allow lists the networks reachable although they are special-purpose
	// (EGRESS_ALLOW, read with ParseAllow): the all-in-one role allows
	// loopback. Unspecified, multicast and broadcast addresses stay refused.
	Allow []netip.Prefix
	// MaxBody caps a response body: reading past it fails with ErrTooLarge
	// (default DefaultMaxBody).
	MaxBody int64
	// Timeout bounds a whole request, body included, and a CheckURL lookup
	// (default DefaultTimeout).
	Timeout time.Duration
	// Resolver looks names up; nil is net.DefaultResolver (tests set one).
	Resolver *net.Resolver
	// RootCAs are the certificate authorities HTTPS servers are checked
	// against; nil is the system's (tests trust their own server's).
	RootCAs *x509.CertPool
}

// Errors of the policy; a refused request's error matches ErrBlocked with
// errors.Is, whether a dial, a redirect or CheckURL refused it.
var (
	ErrBlocked  = errors.New("egress: refused by policy")
	ErrRedirect = fmt.Errorf("%w: redirect not followed", ErrBlocked)
	ErrTooLarge = errors.New("egress: response body too large")
)

// blockedError is a refused destination; it names the address and its
// range for operators and matches ErrBlocked.
type blockedError struct {
	addr   netip.Addr
	reason string
}

func (e *blockedError) Error() string {
	if never(e.addr) != "" || !e.addr.IsValid() {
		return fmt.Sprintf("egress: %s is refused (%s)", e.addr, e.reason)
	}
	return fmt.Sprintf("egress: %s is refused (%s; EGRESS_ALLOW can allow it)", e.addr, e.reason)
}

func (e *blockedError) Unwrap() error { return ErrBlocked }

func (p Policy) timeout() time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return DefaultTimeout
}

func (p Policy) maxBody() int64 {
	if p.MaxBody > 0 {
		return p.MaxBody
	}
	return DefaultMaxBody
}

func (p Policy) resolver() *net.Resolver {
	if p.Resolver != nil {
		return p.Resolver
	}
	return net.DefaultResolver
}

// check returns nil when a request may connect to a, else a blockedError.
func (p Policy) check(a netip.Addr) error {
	a = normalize(a)
	if !a.IsValid() {
		return &blockedError{a, "no address"}
	}
	if r := never(a); r != "" {
		return &blockedError{a, r}
	}
	for _, pre := range p.Allow {
		if pre.Contains(a) {
			return nil
		}
	}
	if r := classify(a); r != "" {
		return &blockedError{a, r}
	}
	return nil
}

// CheckURL validates a URL when it is configured (a webhook, an identity
// provider's issuer): http or https, no credentials in it, and every
// address its host resolves to permitted. A refusal matches ErrBlocked; a
// name that does not resolve answers the resolver's error (*net.DNSError),
// which a caller may accept, since every request checks its address again
// when it connects.
func (p Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("egress: not a URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: scheme %q (http or https only)", ErrBlocked, u.Scheme)
	case u.User != nil:
		return fmt.Errorf("%w: credentials in the URL", ErrBlocked)
	case u.Hostname() == "":
		return errors.New("egress: the URL has no host")
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		return p.check(a)
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	addrs, err := p.resolver().LookupNetIP(ctx, "ip", strings.TrimSuffix(host, "."))
	if err != nil {
		return fmt.Errorf("egress: %w", err)
	}
	for _, a := range addrs {
		if err := p.check(a); err != nil {
			return err
		}
	}
	return nil
}

// ParseAllow reads EGRESS_ALLOW: comma-separated CIDR prefixes or bare IP
// addresses (a /32 or /128). An empty string allows nothing. Every bad
// entry is named in the one error.
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	var bad []string
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for i, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		p, err := parsePrefix(e)
		if err != nil {
			bad = append(bad, fmt.Sprintf("entry %d %q: %s", i+1, e, err))
			continue
		}
		out = append(out, p)
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("not CIDR prefixes or IP addresses: %s", strings.Join(bad, "; "))
	}
	return out, nil
}

func parsePrefix(e string) (netip.Prefix, error) {
	if e == "" {
		return netip.Prefix{}, errors.New("empty")
	}
	if strings.Contains(e, "%") {
		return netip.Prefix{}, errors.New("zones are not allowed")
	}
	if !strings.Contains(e, "/") {
		a, err := netip.ParseAddr(e)
		if err != nil {
			return netip.Prefix{}, errors.New("not an IP address")
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(e)
	if err != nil {
		return netip.Prefix{}, errors.New("not a CIDR prefix")
	}
	if p.Masked() != p {
		return netip.Prefix{}, fmt.Errorf("address bits beyond /%d are set (did you mean %s?)", p.Bits(), p.Masked())
	}
	if a := p.Addr(); a.Is4In6() { // masked, so /96 or longer
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96), nil
	}
	return p, nil
}
