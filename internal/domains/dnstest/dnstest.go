// Package dnstest is a real DNS server for tests, on loopback
// (github.com/miekg/dns, UDP and TCP on one port): the TXT and A records a
// test sets, changed or removed while it runs; every other name is
// NXDOMAIN.
package dnstest

import (
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"

	"github.com/platform/platform/internal/domains"
)

// Server is a running DNS server; Addr is its host:port (DNS_SERVER).
type Server struct {
	Addr string
	mu   sync.Mutex
	txt  map[string][]string
	a    map[string]netip.Addr
}

// Start runs a server on 127.0.0.1 until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{txt: map[string][]string{}, a: map[string]netip.Addr{}}
	// one port for UDP and TCP: a UDP port whose TCP twin is taken is given back and another tried
	var pc net.PacketConn
	var l net.Listener
	for attempt := 0; l == nil; attempt++ {
		var err error
		if pc, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		if l, err = net.Listen("tcp", pc.LocalAddr().String()); err != nil {
			_ = pc.Close()
			if attempt == 20 {
				t.Fatal(err)
			}
		}
	}
	s.Addr = pc.LocalAddr().String()
	udp := &dns.Server{PacketConn: pc, Handler: s}
	tcp := &dns.Server{Listener: l, Handler: s}
	started := make(chan struct{}, 2)
	udp.NotifyStartedFunc = func() { started <- struct{}{} }
	tcp.NotifyStartedFunc = func() { started <- struct{}{} }
	go func() { _ = udp.ActivateAndServe() }()
	go func() { _ = tcp.ActivateAndServe() }()
	<-started
	<-started
	t.Cleanup(func() {
		_ = udp.Shutdown()
		_ = tcp.Shutdown()
	})
	return s
}

// SetTXT makes name answer the TXT records values (none: the name is gone).
func (s *Server) SetTXT(name string, values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(values) == 0 {
		delete(s.txt, key(name))
		return
	}
	s.txt[key(name)] = values
}

// Publish publishes the TXT record that proves a claim of domain whose
// record value is value (domains.RecordValue of the claim's token); ""
// removes it.
func (s *Server) Publish(domain, value string) {
	if value == "" {
		s.SetTXT(domains.RecordName(domain))
		return
	}
	s.SetTXT(domains.RecordName(domain), value)
}

// SetA makes name answer the address a (IPv4).
func (s *Server) SetA(name string, a netip.Addr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.a[key(name)] = a
}

func key(name string) string { return dns.Fqdn(strings.ToLower(name)) }

// ServeDNS answers one query.
func (s *Server) ServeDNS(w dns.ResponseWriter, q *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(q)
	m.Authoritative = true
	s.mu.Lock()
	found := false
	for _, qq := range q.Question {
		name := strings.ToLower(qq.Name)
		txts, hasTXT := s.txt[name]
		a, hasA := s.a[name]
		found = found || hasTXT || hasA
		switch {
		case qq.Qtype == dns.TypeTXT && hasTXT:
			for _, v := range txts {
				m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 0},
					Txt: split(v)})
			}
		case qq.Qtype == dns.TypeA && hasA:
			m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 0},
				A: a.AsSlice()})
		}
	}
	s.mu.Unlock()
	if !found {
		m.Rcode = dns.RcodeNameError
	}
	_ = w.WriteMsg(m)
}

// split cuts a value into the 255-byte strings of a TXT record.
func split(v string) []string {
	var out []string
	for len(v) > 255 {
		out = append(out, v[:255])
		v = v[255:]
	}
	return append(out, v)
}
