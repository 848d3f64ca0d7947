package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// secretBody is what hostile or internal servers answer in these tests; it
// must never appear in a description.
const secretBody = "root:x:0:0 ami-id=i-0123456789 SECRET-BODY"

// fetch is how a caller typically reports a failed answer: the status and
// the body in the error (go-oidc does this), which is why logs carry
// Describe(err) and never err itself.
func fetch(c *http.Client, u string) error {
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: read %q: %w", resp.Status, body, err)
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	return nil
}

// TestAttackBodyInLogs: whatever a failing request answered (an error
// page, a body over the cap, a redirect's page) and whatever the caller
// wrapped into the error, Describe gives a fixed phrase without it, and
// without the address a refused request tried.
//
// attack: body-in-logs
func TestAttackBodyInLogs(t *testing.T) {
	tg := mustTarget(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			fmt.Fprint(w, strings.Repeat(secretBody, 100))
		case "/redirect":
			w.Header().Set("Location", "http://169.254.169.254/")
			w.WriteHeader(http.StatusFound)
			fmt.Fprint(w, secretBody)
		default:
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, secretBody)
		}
	})
	c := Policy{Allow: allow("127.0.0.1/32"), MaxBody: 200}.Client()
	for _, tc := range []struct{ path, want string }{
		{"/error", "request failed"},
		{"/big", "response too large"},
		{"/redirect", "redirect not followed (refused by the egress policy)"},
	} {
		err := fetch(c, tg.URL+tc.path)
		if err == nil {
			t.Fatalf("%s: no error", tc.path)
		}
		if tc.path == "/error" && !strings.Contains(err.Error(), "SECRET-BODY") {
			t.Fatalf("the caller's error does not carry the body, so this test proves nothing: %v", err)
		}
		if got := Describe(err); got != tc.want || strings.Contains(got, "SECRET") {
			t.Errorf("%s: Describe = %q, want %q", tc.path, got, tc.want)
		}
	}
	err := fetch(Policy{}.Client(), tg.URL)
	if got := Describe(err); got != "refused by the egress policy" || strings.Contains(got, "127.0.0.1") {
		t.Errorf("refused: Describe = %q", got)
	}
}

// TestDescribe: each kind of failure gets its phrase.
func TestDescribe(t *testing.T) {
	loop := Policy{Allow: allow("127.0.0.1/32")}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer tlsSrv.Close()
	dns := mustFakeDNS(t)
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	do := func(p Policy, c context.Context, u string) error {
		req, _ := http.NewRequestWithContext(c, http.MethodGet, u, nil)
		resp, err := p.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"Nil", nil, ""},
		{"ConnectionRefused", do(loop, ctx, closedURL), "connection refused"},
		{"TLS", do(loop, ctx, tlsSrv.URL), "TLS failure"},
		{"DNS", do(Policy{Resolver: dns.resolver()}, ctx, "http://nowhere.example.com/"), "DNS lookup failed: no such host"},
		{"Canceled", do(loop, canceled, tlsSrv.URL), "canceled"},
		{"Deadline", fmt.Errorf("discovery: %w", context.DeadlineExceeded), "timeout"},
		{"Blocked", fmt.Errorf("wrapped: %w", ErrBlocked), "refused by the egress policy"},
		{"Other", errors.New(secretBody), "request failed"},
	}
	for _, tc := range tests {
		if got := Describe(tc.err); got != tc.want {
			t.Errorf("%s: Describe(%v) = %q, want %q", tc.name, tc.err, got, tc.want)
		}
	}
}
