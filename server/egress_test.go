package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// TestAttackEgressAllowInForce: EGRESS_ALLOW reaches the console's webhook URL
// check: with only 127.0.0.1 allowed, a webhook on 127.0.0.1 is accepted
// and one on ::1 or 127.0.0.2 (allowed by the all-in-one default, so not
// refused by a default) is not.
//
// attack: egress-config-in-force
func TestAttackEgressAllowInForce(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.EgressAllow, m.Config.EgressProviderLoopback = "127.0.0.1", false })
	alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	rcv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer rcv.Close()
	_, port, _ := net.SplitHostPort(rcv.Listener.Addr().String())
	path := "/customers/" + DemoAcmeCustomerID + "/webhooks"
	if code, out := adminCall(t, m, alice.AccessToken, http.MethodPost, path, map[string]any{"url": rcv.URL}); code != http.StatusCreated {
		t.Fatalf("webhook on 127.0.0.1 = %d %v", code, out)
	}
	for _, u := range []string{"http://[::1]:" + port, "http://127.0.0.2:" + port, "https://169.254.169.254/"} {
		if code, out := adminCall(t, m, alice.AccessToken, http.MethodPost, path, map[string]any{"url": u}); code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(out), "egress policy") {
			t.Errorf("webhook on %s = %d %v, want 400 from the egress policy", u, code, out)
		}
	}
}

// TestAttackWebhookToInternalListener: a customer owner points a webhook at
// the process's own metrics listener, or at another server on loopback, in
// ROLE=all with EGRESS_ALLOW unset (its demo allows loopback to the
// identity provider only) and with EGRESS_ALLOW set but empty (which allows
// nothing): registration is refused 400, and a webhook stored earlier
// (while loopback was allowed) is not delivered: the attempt is refused by
// the egress policy and the receiver is never reached.
//
// attack: webhook-to-internal-listener
func TestAttackWebhookToInternalListener(t *testing.T) {
	t.Parallel()
	for name, env := range map[string]map[string]string{"Unset": {}, "SetEmpty": {"EGRESS_ALLOW": ""}} {
		t.Run(name, func(t *testing.T) {
			cfg, err := ConfigFromEnv(lookupIn(env))
			if err != nil {
				t.Fatal(err)
			}
			m := mustRunMainWith(t, func(m *Main) {
				m.Config.EgressAllow, m.Config.EgressProviderLoopback = cfg.EgressAllow, cfg.EgressProviderLoopback
			})
			var hits atomic.Int32
			rcv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
			defer rcv.Close()
			metrics := "http://" + m.Listeners[ListenerMetrics].Addr().String() + "/metrics"
			alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
			path := "/customers/" + DemoAcmeCustomerID + "/webhooks"
			for _, u := range []string{metrics, rcv.URL} {
				if code, out := adminCall(t, m, alice.AccessToken, http.MethodPost, path, map[string]any{"url": u}); code != http.StatusBadRequest ||
					!strings.Contains(fmt.Sprint(out), "egress policy") {
					t.Errorf("webhook on %s = %d %v, want 400 from the egress policy", u, code, out)
				}
			}
			// webhooks stored while loopback was allowed, then an event of the customer
			key, err := m.Config.secretsKey()
			if err != nil {
				t.Fatal(err)
			}
			sealer, _ := secrets.New(key)
			ctx := context.Background()
			var ids []string
			for _, u := range []string{metrics, rcv.URL} {
				id, now := uuid.NewString(), time.Now()
				if err := m.Store.CreateWebhook(ctx, &store.Webhook{ID: id, CustomerID: DemoAcmeCustomerID, URL: u, Events: []string{"*"},
					Active: true, SecretSealed: sealer.Seal([]byte("whsec_test"), secrets.LabelWebhookSecret(id)), CreatedAt: now, UpdatedAt: now}); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			if code, out := adminCall(t, m, alice.AccessToken, http.MethodPatch, "/customers/"+DemoAcmeCustomerID,
				map[string]any{"name": "Acme Construction"}); code != http.StatusOK {
				t.Fatalf("an audited write: %d %v", code, out)
			}
			if _, err := m.Webhooks.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				ds, err := m.Store.WebhookDeliveries(ctx, id, 10)
				if err != nil || len(ds) == 0 {
					t.Fatalf("deliveries of %s: %v %v", id, ds, err)
				}
				for _, d := range ds {
					if d.Status == store.DeliveryDelivered || d.Attempts == 0 || d.LastError != "refused by the egress policy" {
						t.Errorf("delivery to a loopback webhook: %s after %d attempts, last error %q", d.Status, d.Attempts, d.LastError)
					}
				}
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the loopback receiver was reached %d times", n)
			}
		})
	}
}
