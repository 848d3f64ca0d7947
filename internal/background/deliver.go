package background

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Backoff is the wait after the n-th failed attempt of a delivery (n ≥ 1):
// 30 s × 2^(n-1), at most 6 h. Webhook deliveries and e-mail share it.
func Backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	if n > 15 {
		return 6 * time.Hour
	}
	return min(30*time.Second<<(n-1), 6*time.Hour)
}

// Deliver is the one loop of leased deliveries (webhooks, e-mail): it
// claims each due item (claim answers false when another replica won it,
// which then sends it) and runs attempt on the items it won, parallel at
// a time. It counts the outcomes attempt names ("" is not counted) and
// joins the errors of claims and attempts.
func Deliver[T any](ctx context.Context, due []T, parallel int, claim func(context.Context, *T) (bool, error),
	attempt func(context.Context, *T) (string, error)) (map[string]int, error) {
	if parallel < 1 {
		parallel = 1
	}
	counts := map[string]int{}
	var mu sync.Mutex
	var errs []error
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range due {
		won, err := claim(ctx, &due[i])
		if err != nil {
			errs = append(errs, err)
			break
		}
		if !won {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(item *T) {
			defer func() { <-sem; wg.Done() }()
			outcome, err := attempt(ctx, item)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if outcome != "" {
				counts[outcome]++
			}
		}(&due[i])
	}
	wg.Wait()
	return counts, errors.Join(errs...)
}
