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

// periods checks the optional months from and to of a filter (YYYY-MM,
// "" for none).
func periods(from, to string) (string, string, error) {
	var err error
	if from != "" {
		if from, err = period("from", from); err != nil {
			return "", "", err
		}
	}
	if to != "" {
		if to, err = period("to", to); err != nil {
			return "", "", err
		}
	}
	return from, to, nil
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

// fields applies the fields of an input or a patch to a record, each through
// its check, and keeps the first problem (EINVALID): a nil field (one a patch
// leaves out) keeps the record's value, and once a check fails the fields
// after it are not applied. A create passes every field of its input to the
// record's patch, so each field of a record is checked in one place.
type fields struct{ err error }

// apply sets *dst to fn(*v) when v is given and nothing failed before.
func apply[T, U any](f *fields, dst *U, v *T, fn func(T) (U, error)) {
	if v == nil || f.err != nil {
		return
	}
	*dst, f.err = fn(*v)
}

// set sets *dst to *v when v is given (a field that needs no check).
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func (f *fields) text(dst *string, field string, v *string, max int) {
	apply(f, dst, v, func(v string) (string, error) { return text(field, v, max) })
}

func (f *fields) required(dst *string, field string, v *string, max int) {
	apply(f, dst, v, func(v string) (string, error) { return required(field, v, max) })
}

func (f *fields) oneOf(dst *string, field string, v *string, allowed ...string) {
	apply(f, dst, v, func(v string) (string, error) { return oneOf(field, v, allowed...) })
}

func (f *fields) currency(dst *string, field string, v *string) {
	apply(f, dst, v, func(v string) (string, error) { return currency(field, v) })
}

func (f *fields) cents(dst *int64, field string, v *float64) {
	apply(f, dst, v, func(v float64) (int64, error) { return cents(field, v) })
}

func (f *fields) key(dst *string, field string, v *string) {
	apply(f, dst, v, func(v string) (string, error) { return catalogKey(field, v) })
}
