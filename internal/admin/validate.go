package admin

import (
	"context"
	"errors"
	"math"
	"net/url"
	"regexp"
	"strings"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
)

// Input checks the services share; each answers EINVALID with a message naming the field.

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

// cleanName validates a display name: 1 to 200 characters after trimming.
func cleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len([]rune(s)) > 200 {
		return "", platform.Errorf(platform.EINVALID, "%s is required (at most 200 characters)", field)
	}
	return s, nil
}

func catalogKey(field, v string) (string, error) {
	if !keyRE.MatchString(v) {
		return "", invalid("%s must start with a-z and hold only a-z, 0-9 and _ (at most 63 characters)", field)
	}
	return v, nil
}

// endpointURL validates a URL the platform calls (platform.CheckHTTPSOrLoopback)
// and answers it trimmed and normalized.
func endpointURL(field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if err := platform.CheckHTTPSOrLoopback(field, raw); err != nil {
		return "", err
	}
	u, _ := url.Parse(raw)
	return u.String(), nil
}

// outboundURL validates a URL the platform will call with a customer's
// data or secrets (a webhook, an identity provider's issuer): endpointURL's
// rules, and no address the egress policy refuses. A name that does not
// resolve yet is accepted; every request checks the address it connects to.
func outboundURL(ctx context.Context, policy egress.Policy, field, raw string) (string, error) {
	u, err := endpointURL(field, raw)
	if err != nil {
		return "", err
	}
	if err := policy.CheckURL(ctx, u); errors.Is(err, egress.ErrBlocked) {
		return "", invalid("%s must reach a public address; the platform's egress policy refuses this one", field)
	}
	return u, nil
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
