package egress

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// Timeouts of the steps of a request, each also bounded by Policy.Timeout.
const (
	dialTimeout = 5 * time.Second
	tlsTimeout  = 5 * time.Second
)

// Client returns an http.Client under the policy:
//
//   - every connection is checked on the address the socket connects to
//     (in the dialer, after resolution), so a name cannot resolve to one
//     address when checked and another when used;
//   - no proxy from the environment;
//   - redirects are not followed: Do answers the 3xx response (its body
//     closed) together with an error matching ErrRedirect and ErrBlocked;
//   - a response body yields at most MaxBody bytes, then ErrTooLarge
//     (after decompression, so a small gzip body cannot expand past it);
//   - dial 5 s, TLS handshake 5 s, response headers and the whole request
//     within Timeout; headers at most 64 KiB.
//
// Each call builds its own connection pool: build one client per use and
// keep it.
func (p Policy) Client() *http.Client {
	timeout := p.timeout()
	dialer := &net.Dialer{
		Timeout:        min(dialTimeout, timeout),
		KeepAlive:      30 * time.Second,
		Resolver:       p.Resolver,
		ControlContext: p.control,
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: p.RootCAs},
		TLSHandshakeTimeout:    min(tlsTimeout, timeout),
		ResponseHeaderTimeout:  timeout,
		ExpectContinueTimeout:  time.Second,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport:     &capped{base: tr, max: p.maxBody()},
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return ErrRedirect },
	}
}

// control refuses a connection to an address the policy does not permit.
// It runs on the socket's own address, whatever name led to it.
func (p Policy) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &blockedError{reason: "unparsable address"}
	}
	return p.check(ap.Addr())
}

// capped is the transport with bounded response bodies.
type capped struct {
	base *http.Transport
	max  int64
}

func (c *capped) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: c.max}
	return resp, nil
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the pool.
func (c *capped) CloseIdleConnections() { c.base.CloseIdleConnections() }

// cappedBody reads up to left bytes and fails with ErrTooLarge when the
// body has more.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
