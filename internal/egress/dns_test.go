package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// fakeDNS is a DNS server on loopback UDP answering A and AAAA queries from
// a table, so tests resolve public-looking names without any network.
// A name's answers are used in turn (the last one repeats), counted per
// query type, which lets a name change its address between lookups.
type fakeDNS struct {
	pc      net.PacketConn
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	asked   map[string]int // "name type" → queries so far
}

// mustFakeDNS starts a fakeDNS that stops when the test ends.
func mustFakeDNS(t *testing.T) *fakeDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &fakeDNS{pc: pc, answers: map[string][][]netip.Addr{}, asked: map[string]int{}}
	t.Cleanup(func() { pc.Close() })
	go d.serve()
	return d
}

// set makes name answer each list of addresses in turn.
func (d *fakeDNS) set(name string, answers ...[]netip.Addr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers[name+"."] = answers
}

// addrs parses addresses for set.
func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

// resolver is a Go resolver that asks only this server.
func (d *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dl net.Dialer
		return dl.DialContext(ctx, "udp", d.pc.LocalAddr().String())
	}}
}

func (d *fakeDNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if out, err := d.answer(buf[:n]); err == nil {
			_, _ = d.pc.WriteTo(out, from)
		}
	}
}

func (d *fakeDNS) answer(msg []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	name := q.Name.String()
	d.mu.Lock()
	seq, known := d.answers[name]
	key := name + " " + q.Type.String()
	i := d.asked[key]
	d.asked[key]++
	d.mu.Unlock()

	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	if !known {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	if known && len(seq) > 0 {
		rr := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}
		for _, a := range seq[min(i, len(seq)-1)] {
			switch {
			case q.Type == dnsmessage.TypeA && a.Is4():
				err = b.AResource(rr, dnsmessage.AResource{A: a.As4()})
			case q.Type == dnsmessage.TypeAAAA && a.Is6():
				err = b.AAAAResource(rr, dnsmessage.AAAAResource{AAAA: a.As16()})
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return b.Finish()
}

// TestFakeDNS: the helper the name tests rely on answers what it was told
// and NXDOMAIN otherwise, so a refusal in those tests is the policy's.
func TestFakeDNS(t *testing.T) {
	d := mustFakeDNS(t)
	d.set("public.example.com", addrs("93.184.216.34", "2606:2800:220:1::1"))
	r := d.resolver()
	got, err := r.LookupNetIP(context.Background(), "ip", "public.example.com")
	if err != nil || len(got) != 2 {
		t.Fatalf("lookup = %v, %v", got, err)
	}
	_, err = r.LookupNetIP(context.Background(), "ip", "nowhere.example.com")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Fatalf("unknown name: %v", err)
	}
}
