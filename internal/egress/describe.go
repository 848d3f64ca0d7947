package egress

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"syscall"
)

// Describe returns a short description of a failed request that is safe to
// log or to show a customer: one of a fixed set of phrases ("refused by
// the egress policy", "redirect not followed", "response too large",
// "timeout", "DNS lookup failed", "connection refused", "TLS failure", …),
// never the error's text, so neither a response body a caller wrapped
// into err nor an internal address ends up in a log. nil gives "".
func Describe(err error) string {
	var (
		dns     *net.DNSError
		netErr  net.Error
		tlsRec  tls.RecordHeaderError
		tlsAl   tls.AlertError
		tlsVer  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrRedirect):
		return "redirect not followed (refused by the egress policy)"
	case errors.Is(err, ErrBlocked):
		return "refused by the egress policy"
	case errors.Is(err, ErrTooLarge):
		return "response too large"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "DNS lookup failed: no such host"
		}
		if dns.IsTimeout {
			return "DNS lookup failed: timeout"
		}
		return "DNS lookup failed"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	case errors.As(err, &tlsVer), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid),
		errors.As(err, &tlsRec), errors.As(err, &tlsAl):
		return "TLS failure"
	}
	return "request failed"
}
