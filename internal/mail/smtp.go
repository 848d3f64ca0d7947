package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
)

// Sender delivers one composed message.
type Sender interface {
	Send(ctx context.Context, from, to string, b Body) error
}

// SMTP sends through the server of an SMTP_URL:
//   - smtp://user:pass@host:587 — STARTTLS, required (the default port 587);
//   - smtps://user:pass@host:465 — TLS from the first byte (default port 465);
//   - smtp://host:1025?tls=none — no TLS, accepted only for a loopback host
//     (a local development mail catcher).
//
// User and password, when given, authenticate with the best mechanism the
// server offers.
type SMTP struct {
	host     string
	port     int
	implicit bool
	noTLS    bool
	user     string
	pass     string
	// TLS, when set, replaces the default TLS configuration (tests trust
	// their own certificate with it); ServerName is always the URL's host.
	TLS *tls.Config
	// Timeout bounds one delivery's connection and conversation; default 30 s.
	Timeout time.Duration
}

// ParseSMTPURL checks an SMTP_URL and returns its sender.
func ParseSMTPURL(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, errors.New("must be smtp://user:password@host:port or smtps://… (percent-encode special characters)")
	}
	s := &SMTP{host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		s.port = 587
	case "smtps":
		s.port, s.implicit = 465, true
	default:
		return nil, fmt.Errorf("scheme %q must be smtp (STARTTLS) or smtps (TLS)", u.Scheme)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q is not a port number", p)
		}
		s.port = n
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	q := u.Query()
	switch q.Get("tls") {
	case "":
	case "none":
		if s.implicit || !platform.IsLoopback(s.host) {
			return nil, errors.New("tls=none is allowed only with smtp:// to a loopback host (a local mail catcher)")
		}
		s.noTLS = true
	default:
		return nil, errors.New("tls may only be none (loopback only)")
	}
	if (u.Path != "" && u.Path != "/") || u.Fragment != "" || len(q) > 1 || (len(q) == 1 && !q.Has("tls")) {
		return nil, errors.New("must have no path, fragment or query parameters other than tls=none")
	}
	return s, nil
}

// Describe names the server for logs and the banner, without credentials.
func (s *SMTP) Describe() string {
	mode := "STARTTLS"
	switch {
	case s.implicit:
		mode = "TLS"
	case s.noTLS:
		mode = "no TLS"
	}
	return fmt.Sprintf("%s (%s)", net.JoinHostPort(s.host, strconv.Itoa(s.port)), mode)
}

// Send delivers one message over a new connection.
func (s *SMTP) Send(ctx context.Context, from, to string, b Body) error {
	m := gomail.NewMsg()
	if err := m.From(from); err != nil {
		return fmt.Errorf("MAIL_FROM: %w", err)
	}
	// The organization's display name on the platform's address, and its
	// Reply-To, each checked again here (net/mail, no CR or LF): a value
	// that fails is left out rather than sent (D-org-mail).
	if header, err := branding.FromHeader(b.FromName, from); b.FromName != "" && err == nil {
		if err := m.From(header); err != nil {
			return fmt.Errorf("MAIL_FROM: %w", err)
		}
	}
	if replyTo, err := branding.ParseReplyTo(b.ReplyTo); err == nil && replyTo != "" {
		if err := m.ReplyTo(replyTo); err != nil {
			return permanent{fmt.Errorf("the Reply-To address is not valid")}
		}
	}
	if err := m.To(to); err != nil {
		return permanent{fmt.Errorf("the recipient's address is not valid")}
	}
	m.Subject(b.Subject)
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(gomail.TypeTextPlain, b.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, b.HTML)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.TLS != nil {
		tlsConf = s.TLS.Clone()
	}
	tlsConf.ServerName = s.host
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(timeout), gomail.WithTLSConfig(tlsConf)}
	switch {
	case s.implicit:
		opts = append(opts, gomail.WithSSL())
	case s.noTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(s.user),
			gomail.WithPassword(s.pass))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.DialAndSendWithContext(ctx, m)
}

// permanent is a failure no retry can mend.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }
