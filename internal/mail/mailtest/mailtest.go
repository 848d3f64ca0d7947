// Package mailtest is a real SMTP server for tests, on loopback: STARTTLS
// with a certificate made at start, AUTH PLAIN with a fixed account, and
// every accepted message parsed into its text and HTML parts. It can be
// stopped and started again on the same address (a server that is down,
// then up).
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/platform/platform/internal/mail"
)

// The account the server accepts.
const (
	User     = "mailer"
	Password = "s3cret-mailer-password"
)

// Message is one accepted message.
type Message struct {
	From    string
	To      []string
	Subject string
	Text    string
	HTML    string
	Header  netmail.Header
}

// Server is a running test SMTP server.
type Server struct {
	t       testing.TB
	addr    string
	tlsConf *tls.Config
	roots   *x509.CertPool

	mu     sync.Mutex
	srv    *smtp.Server
	ln     net.Listener
	msgs   []Message
	notify chan struct{}
}

// Start starts a server on a free loopback port; it stops with the test.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, notify: make(chan struct{}, 100)}
	s.tlsConf, s.roots = certificate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

func (s *Server) serve(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.TLSConfig = s.tlsConf
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	s.mu.Lock()
	s.srv, s.ln = srv, ln
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// URL is the SMTP_URL of the server: STARTTLS and its account.
func (s *Server) URL() string { return "smtp://" + User + ":" + Password + "@" + s.addr }

// Addr is host:port.
func (s *Server) Addr() string { return s.addr }

// Sender is an SMTP sender for this server: its URL, its certificate trusted.
func (s *Server) Sender() *mail.SMTP {
	sender, err := mail.ParseSMTPURL(s.URL())
	if err != nil {
		s.t.Fatal(err)
	}
	sender.TLS, sender.Timeout = s.ClientTLS(), 10*time.Second
	return sender
}

// ClientTLS trusts the server's certificate.
func (s *Server) ClientTLS() *tls.Config {
	return &tls.Config{RootCAs: s.roots, MinVersion: tls.VersionTLS12}
}

// Stop closes the server; connections are refused until Restart.
func (s *Server) Stop() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		_ = ln.Close() // also when Serve has not taken it yet
		_ = srv.Close()
	}
}

// Restart listens again on the same address.
func (s *Server) Restart() {
	s.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port is free again once the old listener is closed
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(ln)
}

// Messages returns the accepted messages so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// To returns the accepted messages to one address.
func (s *Server) To(addr string) []Message {
	var out []Message
	for _, m := range s.Messages() {
		for _, to := range m.To {
			if strings.EqualFold(to, addr) {
				out = append(out, m)
			}
		}
	}
	return out
}

var linkPattern = regexp.MustCompile(`https?://[^\s<>"]+`)

// Link is the first link of a message's text.
func (m Message) Link() string { return linkPattern.FindString(m.Text) }

type session struct {
	s    *Server
	auth bool
	from string
	to   []string
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != User || password != Password {
			return errors.New("invalid credentials")
		}
		x.auth = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if !x.auth {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := parse(raw)
	if err != nil {
		return err
	}
	m.From, m.To = x.from, x.to
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, m)
	x.s.mu.Unlock()
	select {
	case x.s.notify <- struct{}{}:
	default:
	}
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

func parse(raw []byte) (Message, error) {
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Message{}, err
	}
	var m Message
	m.Header = msg.Header
	dec := new(mime.WordDecoder)
	m.Subject, _ = dec.DecodeHeader(msg.Header.Get("Subject"))
	err = walk(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body, &m)
	return m, err
}

func walk(ctype, encoding string, body io.Reader, m *Message) error {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return err
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				return err
			}
			if err := walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, m); err != nil {
				return err
			}
		}
	}
	if strings.EqualFold(encoding, "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	switch mt {
	case "text/plain":
		m.Text = string(b)
	case "text/html":
		m.HTML = string(b)
	}
	return nil
}

// certificate makes a self-signed certificate for 127.0.0.1 and localhost.
func certificate(t testing.TB) (*tls.Config, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, pool
}
