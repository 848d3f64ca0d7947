package idp

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// An external provider's key set was read by go-oidc in a goroutine of its
// own, detached from the sign-in that needed it: a provider that never
// answers kept the connection (and the goroutine) open after the browser
// had given up, for as long as the egress policy's timeout, once per
// sign-in. The keys are now read within the request: when it ends, so
// does the request to the provider. (The egress timeout is set to an hour
// here, so only the request's end can stop the read.)
// attack: sso-fetch-outlives-request
func TestAttackSSOFetchOutlivesRequest(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t, func(c *Config) { c.Egress.Timeout = time.Hour })
	var hold atomic.Bool
	entered, abandoned, release := make(chan struct{}, 1), make(chan struct{}, 1), make(chan struct{})
	ext := startExternalOP(t, ti.issuer, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if hold.Load() && strings.HasSuffix(r.URL.Path, "/keys") {
				entered <- struct{}{}
				select {
				case <-r.Context().Done():
					abandoned <- struct{}{}
					return
				case <-release:
				}
			}
			next.ServeHTTP(w, r)
		})
	})
	t.Cleanup(func() { close(release) }) // before the external provider stops (cleanups run last first)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	scope := "openid profile email " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID

	b := ti.browser()
	b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), ti.issuer+PathSSOCallback) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, _, _ := ti.ssoLoginWith(t, b, ext, ti.rp().authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
	callback := resp.Header.Get("Location")
	if !strings.HasPrefix(callback, ti.issuer+PathSSOCallback) {
		t.Fatalf("the external provider did not send the browser back: %d %q", resp.StatusCode, callback)
	}

	hold.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, callback, nil)
		if resp, err := b.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the callback never asked the external provider for its keys")
	}
	cancel() // the browser gives up
	<-done
	select {
	case <-abandoned:
	case <-time.After(30 * time.Second):
		t.Fatal("the request for the external provider's keys outlived the sign-in that made it")
	}
}

// Work started after requests (the reset and unlock e-mails, which run
// after the answer so its timing tells nothing) is bounded: past
// laterSlots jobs at once, a new one is dropped rather than piled up.
func TestLaterBounded(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	release := make(chan struct{})
	var ran atomic.Int64
	for range laterSlots {
		ti.p.later(context.Background(), func(ctx context.Context) error {
			ran.Add(1)
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		})
	}
	var extra atomic.Bool
	ti.p.later(context.Background(), func(context.Context) error { extra.Store(true); return nil })
	close(release)
	ti.p.WaitBackground()
	if ran.Load() != laterSlots || extra.Load() {
		t.Fatalf("%d jobs ran, the one past the bound ran: %v", ran.Load(), extra.Load())
	}
	ti.p.later(context.Background(), func(context.Context) error { extra.Store(true); return nil })
	ti.p.WaitBackground()
	if !extra.Load() {
		t.Fatal("a job after the others finished did not run")
	}
}
