package idp

import (
	"context"
	"testing"
	"time"
)

// An impersonated authorization's id_token ends with the impersonation
// although the op library adds the lifetime to its own clock a moment
// later and writes exp in whole seconds: signed up to a second after the
// lifetime was read, its exp is still not after the impersonation's end.
// spec: D-impersonation
func TestImpersonatedIDTokenEndsWithTheImpersonation(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 1, 47, 20, 100_000_000, time.UTC)
	s := &storage{core: &core{cfg: Config{Now: func() time.Time { return now }}}}
	for _, end := range []time.Time{
		now.Add(14*time.Second + 850*time.Millisecond), // the end late in its second
		now.Add(14 * time.Second),
		now.Add(2 * time.Hour),
	} {
		ctx := context.WithValue(context.Background(), tokenDeadlineKey{}, end)
		ttl := s.idTokenLifetime(ctx, time.Hour)
		for _, later := range []time.Duration{0, 300 * time.Millisecond, 999 * time.Millisecond} {
			if exp := now.Add(later).Add(ttl).Unix(); exp > end.Unix() {
				t.Errorf("end %v: signed %v later, exp %d is after the impersonation's end %d", end.Sub(now), later, exp, end.Unix())
			}
		}
		if ttl > time.Hour || ttl < time.Second {
			t.Errorf("end %v: lifetime %v, want within [1s, 1h]", end.Sub(now), ttl)
		}
	}
	if ttl := s.idTokenLifetime(context.Background(), time.Hour); ttl != time.Hour {
		t.Errorf("without an impersonation the lifetime is %v, want the client's hour", ttl)
	}
}
