package domains

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/egress"
)

// RecordPrefix is the label the TXT record of a claim is published under:
// _platform-challenge.<domain>.
const RecordPrefix = "_platform-challenge."

// WellKnownPath is the path of the HTTPS proof file on the domain.
const WellKnownPath = "/.well-known/platform-domain-verification.txt"

// ValuePrefix starts the value a claim's record or file holds.
const ValuePrefix = "platform-domain-verification="

// lookupTimeout bounds one DNS lookup.
const lookupTimeout = 5 * time.Second

// RecordName is the name of the TXT record that proves a claim of domain.
func RecordName(domain string) string { return RecordPrefix + domain }

// RecordValue is the value a claim with token publishes.
func RecordValue(token string) string { return ValuePrefix + token }

// WellKnownURL is the HTTPS proof file of domain.
func WellKnownURL(domain string) string { return "https://" + domain + WellKnownPath }

// Prover proves claims: by the TXT record at Resolver, or by the file
// fetched through Egress (its connections checked against the egress
// policy: an internal address is refused unless EGRESS_ALLOW names it; no
// redirect is followed; the body is capped).
type Prover struct {
	// Resolver answers TXT lookups: NewResolver(DNS_SERVER), or nil for the
	// system resolver.
	Resolver *net.Resolver
	// Egress is the outbound policy of the HTTPS proof.
	Egress egress.Policy
	// HTTPSPort is the port of the proof file, 443 when zero (tests run
	// their server elsewhere).
	HTTPSPort int
}

// NewResolver is a resolver that asks server (host:port) over UDP, or TCP
// when the answer is truncated; "" is the system resolver (nil).
func NewResolver(server string) *net.Resolver {
	if server == "" {
		return nil
	}
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
}

// Proof is how a claim was proven: "dns" or "https".
type Proof string

// The methods of a proof.
const (
	ByDNS   Proof = "dns"
	ByHTTPS Proof = "https"
)

// ErrNotProven is a claim neither the record nor the file proves; its
// message says what was looked for.
var ErrNotProven = errors.New("domains: not proven")

// Prove looks for value at the TXT record of domain, then in its HTTPS
// file, and answers the method that found it. ErrNotProven (wrapped, with
// what each method found) when neither did.
func (p Prover) Prove(ctx context.Context, domain, value string) (Proof, error) {
	dnsErr := p.proveDNS(ctx, domain, value)
	if dnsErr == nil {
		return ByDNS, nil
	}
	httpsErr := p.proveHTTPS(ctx, domain, value)
	if httpsErr == nil {
		return ByHTTPS, nil
	}
	return "", fmt.Errorf("%w: the TXT record %s: %s; %s: %s", ErrNotProven, RecordName(domain), dnsErr, WellKnownURL(domain), httpsErr)
}

func (p Prover) proveDNS(ctx context.Context, domain, value string) error {
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	txts, err := r.LookupTXT(ctx, RecordName(domain)+".")
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return errors.New("no such record")
	case err != nil:
		return errors.New("the lookup failed")
	}
	for _, t := range txts {
		if same(strings.TrimSpace(t), value) {
			return nil
		}
	}
	return errors.New("no record holds the value")
}

func (p Prover) proveHTTPS(ctx context.Context, domain, value string) error {
	host := domain
	if p.HTTPSPort != 0 {
		host = net.JoinHostPort(domain, strconv.Itoa(p.HTTPSPort))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+host+WellKnownPath, nil)
	if err != nil {
		return errors.New("not a URL")
	}
	resp, err := p.Egress.Client().Do(req)
	if err != nil {
		if errors.Is(err, egress.ErrBlocked) {
			return errors.New("refused by the egress policy")
		}
		return errors.New("the request failed")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 1024), 4096)
	for n := 0; sc.Scan() && n < 64; n++ {
		if same(strings.TrimSpace(sc.Text()), value) {
			return nil
		}
	}
	return errors.New("the file does not hold the value")
}

// same compares a published value with the expected one in constant time.
func same(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
