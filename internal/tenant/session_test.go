package tenant

import (
	"encoding/base64"
	"testing"
	"time"
)

// tokenLifetime reads exp - iat of a stored JWT, and falls back on anything
// it cannot read.
func TestTokenLifetime(t *testing.T) {
	jwt := func(payload string) string {
		return "e30." + base64.RawURLEncoding.EncodeToString([]byte(payload)) + ".c2ln"
	}
	const def = 15 * time.Minute
	for _, c := range []struct {
		raw  string
		want time.Duration
	}{
		{jwt(`{"iat":1000,"exp":4600,"sub":"u"}`), time.Hour},
		{jwt(`{"iat":1000}`), def},
		{jwt(`{"iat":4600,"exp":1000}`), def},
		{jwt(`{"iat":"x","exp":4600}`), def},
		{"e30.not base64!.c2ln", def},
		{"no-dots", def},
		{"", def},
	} {
		if got := tokenLifetime(c.raw, def); got != c.want {
			t.Errorf("tokenLifetime(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
}
