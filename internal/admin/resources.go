package admin

import (
	"context"
	"crypto/rand"
	"log/slog"
	"math"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
)

// What the services of the customer-side configuration, billing and the
// internal-infrastructure resources share: sealing of secrets, the scope
// as a customer set, and input checks.

// WithSealer sets the sealer of secrets kept at rest (identity-provider
// client secrets, webhook signing secrets, secret environment variables).
// Without it a key made at start is used, which a restart loses: fine for
// tests, wrong for production (server.Main always sets one).
func WithSealer(sl *secrets.Sealer) Option { return func(s *Service) { s.sealer = sl } }

// WithEgress sets the outbound policy a webhook URL is checked against
// when it is set (D-egress); the default, the zero Policy, refuses every
// internal address. Deliveries check each connection again.
func WithEgress(p egress.Policy) Option { return func(s *Service) { s.egress = p } }

var (
	ephemeralOnce   sync.Once
	ephemeralSealer *secrets.Sealer
)

func (s *Service) secrets() *secrets.Sealer {
	if s.sealer != nil {
		return s.sealer
	}
	ephemeralOnce.Do(func() {
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		ephemeralSealer, _ = secrets.New(key)
		slog.Warn("admin: no secrets key configured; secrets sealed now cannot be opened after a restart")
	})
	return ephemeralSealer
}

// seal seals a secret for one column of one row.
func (s *Service) seal(value, table, column, id string) []byte {
	return s.secrets().Seal([]byte(value), table+"."+column+":"+id)
}

// open opens what seal sealed.
func (s *Service) open(sealed []byte, table, column, id string) (string, error) {
	b, err := s.secrets().Open(sealed, table+"."+column+":"+id)
	if err != nil {
		return "", platform.Errorf(platform.EINTERNAL, "a sealed secret of %s cannot be opened", table)
	}
	return string(b), nil
}

// owned checks act on a loaded resource of customerID; a load that failed
// with ENOTFOUND answers as an out-of-scope resource would (R4.6-id-scope).
func (s *Service) owned(ctx context.Context, c *access.Caller, act authz.Action, write bool, customerID string, loadErr error) error {
	if loadErr != nil {
		return s.access.CheckMissing(ctx, c, act, write, loadErr)
	}
	return s.check(ctx, c, act, authz.Resource{CustomerID: customerID}, write)
}

// stamp returns the service's clock at the precision both databases keep.
func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func invalid(format string, args ...any) error {
	return platform.Errorf(platform.EINVALID, format, args...)
}

// text validates an optional free text of at most max characters.
func text(field, v string, max int) (string, error) {
	v = strings.TrimSpace(v)
	if len([]rune(v)) > max {
		return "", invalid("%s must be at most %d characters", field, max)
	}
	return v, nil
}

// required validates a required text of at most max characters.
func required(field, v string, max int) (string, error) {
	v, err := text(field, v, max)
	if err == nil && v == "" {
		err = invalid("%s is required", field)
	}
	return v, err
}

// localHost reports whether host is this machine (http is allowed there).
func localHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// endpointURL validates a URL the platform calls: https, or http on
// localhost; no credentials or fragment; at most 2,000 characters.
func endpointURL(field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if raw == "" || len(raw) > 2000 || err != nil || u.Host == "" || u.Opaque != "" {
		return "", invalid("%s must be an absolute https URL", field)
	}
	switch {
	case u.User != nil:
		return "", invalid("%s must not carry credentials", field)
	case u.Fragment != "":
		return "", invalid("%s must not carry a fragment", field)
	case u.Scheme == "https":
	case u.Scheme == "http" && localHost(u.Hostname()):
	default:
		return "", invalid("%s must use https (http only on localhost)", field)
	}
	return u.String(), nil
}

var (
	currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)
	periodRE   = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])$`)
	keyRE      = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)
)

func currency(field, v string) (string, error) {
	if !currencyRE.MatchString(v) {
		return "", invalid("%s must be an ISO 4217 code such as EUR", field)
	}
	return v, nil
}

func period(field, v string) (string, error) {
	if !periodRE.MatchString(v) {
		return "", invalid("%s must be a month written YYYY-MM", field)
	}
	return v, nil
}

// maxCents bounds amounts: ten billion in major units.
const maxCents = 1_000_000_000_000

// cents converts an amount in major units (at most two decimals,
// non-negative) to cents.
func cents(field string, amount float64) (int64, error) {
	c := math.Round(amount * 100)
	switch {
	case math.IsNaN(amount) || math.IsInf(amount, 0) || amount < 0:
		return 0, invalid("%s must be a non-negative amount", field)
	case c > maxCents:
		return 0, invalid("%s is too large", field)
	case math.Abs(c-amount*100) > 1e-6:
		return 0, invalid("%s must have at most two decimals", field)
	}
	return int64(c), nil
}

// major converts cents to an amount in major units.
func major(c int64) float64 { return float64(c) / 100 }

// oneOf validates an enumerated value.
func oneOf(field, v string, allowed ...string) (string, error) {
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", invalid("%s must be one of %s", field, strings.Join(allowed, ", "))
}

// WholePage is a whole list as the API answers it: the page envelope without a next page.
func WholePage[T any](v []T) *Page[T] { return newPage(v, "") }
