package domains_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/domains/dnstest"
	"github.com/platform/platform/internal/egress"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// wellKnown is an HTTPS server of the proof file answering body, and the
// prover that reaches it by name through the DNS server and the policy
// (httptest's certificate is for example.com).
func wellKnown(t *testing.T, dnsSrv *dnstest.Server, allow []netip.Prefix, body *atomic.Value, hits *atomic.Int32) domains.Prover {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != domains.WellKnownPath {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, body.Load())
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	n, _ := strconv.Atoi(port)
	r := domains.NewResolver(dnsSrv.Addr)
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	return domains.Prover{Resolver: r, Egress: egress.Policy{Allow: allow, Resolver: r, RootCAs: pool}, HTTPSPort: n}
}

// The TXT record at the configured DNS server proves a claim: present with
// the value (among other records), it does; absent, or with another
// value, it does not, and the error says what was found; changed later,
// the next proof sees the change (no cache).
func TestProveByDNS(t *testing.T) {
	t.Parallel()
	d := dnstest.Start(t)
	p := domains.Prover{Resolver: domains.NewResolver(d.Addr), Egress: egress.Policy{Resolver: domains.NewResolver(d.Addr)}}
	ctx := context.Background()
	value := domains.RecordValue("abc123")
	if _, err := p.Prove(ctx, "acme.example", value); !errors.Is(err, domains.ErrNotProven) || !strings.Contains(err.Error(), "no such record") {
		t.Fatalf("absent record: %v", err)
	}
	d.SetTXT("_platform-challenge.acme.example", "v=spf1 -all", value)
	if how, err := p.Prove(ctx, "acme.example", value); err != nil || how != domains.ByDNS {
		t.Fatalf("present record: %v %v", how, err)
	}
	d.SetTXT("_platform-challenge.acme.example", domains.RecordValue("other"))
	if _, err := p.Prove(ctx, "acme.example", value); !errors.Is(err, domains.ErrNotProven) || !strings.Contains(err.Error(), "no record holds the value") {
		t.Fatalf("changed record: %v", err)
	}
	d.SetTXT("_platform-challenge.acme.example")
	if _, err := p.Prove(ctx, "acme.example", value); !errors.Is(err, domains.ErrNotProven) {
		t.Fatalf("removed record: %v", err)
	}
}

// The well-known file over HTTPS proves a claim when the egress policy lets
// its address through (EGRESS_ALLOW names loopback here); a file with
// another value does not.
func TestProveByHTTPS(t *testing.T) {
	t.Parallel()
	d := dnstest.Start(t)
	d.SetA("example.com", netip.MustParseAddr("127.0.0.1"))
	var body atomic.Value
	var hits atomic.Int32
	body.Store("# platform\n" + domains.RecordValue("abc123") + "\n")
	p := wellKnown(t, d, loopback, &body, &hits)
	ctx := context.Background()
	if how, err := p.Prove(ctx, "example.com", domains.RecordValue("abc123")); err != nil || how != domains.ByHTTPS {
		t.Fatalf("file with the value: %v %v", how, err)
	}
	body.Store(domains.RecordValue("other"))
	if _, err := p.Prove(ctx, "example.com", domains.RecordValue("abc123")); !errors.Is(err, domains.ErrNotProven) ||
		!strings.Contains(err.Error(), "does not hold the value") {
		t.Fatalf("file with another value: %v", err)
	}
}

// A domain whose name resolves to an internal address (loopback here, as
// the metadata address or a private network would) is never fetched: the
// egress policy refuses the connection, the server sees no request, and
// the claim is not proven although the file there holds the value.
//
// attack: domain-proof-internal-address
func TestAttackDomainProofInternalAddress(t *testing.T) {
	t.Parallel()
	d := dnstest.Start(t)
	d.SetA("example.com", netip.MustParseAddr("127.0.0.1"))
	var body atomic.Value
	var hits atomic.Int32
	body.Store(domains.RecordValue("abc123"))
	p := wellKnown(t, d, nil, &body, &hits) // EGRESS_ALLOW empty: internal addresses refused
	_, err := p.Prove(context.Background(), "example.com", domains.RecordValue("abc123"))
	if !errors.Is(err, domains.ErrNotProven) || !strings.Contains(err.Error(), "refused by the egress policy") {
		t.Fatalf("internal address: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the internal server got %d requests", n)
	}
}
