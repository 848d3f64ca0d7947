// Package webhook delivers a customer's events to its webhook subscriptions
// (D-events, D-audit-trail): each administration write and security event
// of the customer becomes a delivery per webhook subscribed to it, POSTed
// as JSON in the audit trail's one schema, signed with HMAC-SHA256 under
// the webhook's secret, and retried with exponential backoff until the
// receiver answers 2xx or the attempts run out.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Header names of a delivery.
const (
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256>" of
	// "<t>.<body>" under the webhook's secret.
	SignatureHeader = "Webhook-Signature"
	// IDHeader carries the event id; a receiver drops repeats of it (a
	// delivery may arrive more than once when an answer was lost).
	IDHeader = "Webhook-Id"
	// EventHeader carries the event type.
	EventHeader = "Webhook-Event"
)

// Sign returns the SignatureHeader value for body sent at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Errors of Verify.
var (
	ErrMalformed = errors.New("webhook: malformed signature header")
	ErrTooOld    = errors.New("webhook: signature timestamp outside tolerance")
	ErrMismatch  = errors.New("webhook: signature does not match")
)

// Verify checks a SignatureHeader value against body, for receivers: the
// HMAC must match (compared in constant time) and the timestamp be within
// tolerance of now, which stops replays of old deliveries.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case !ok:
			return ErrMalformed
		case k == "t":
			ts = v
		case k == "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrMalformed
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrTooOld
	}
	want := mac(secret, ts, body)
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return ErrMismatch
}
