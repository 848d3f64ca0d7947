package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAttackEgressAllowInForce: EGRESS_ALLOW reaches the console's webhook URL
// check: with only 127.0.0.1 allowed, a webhook on 127.0.0.1 is accepted
// and one on ::1 or 127.0.0.2 (allowed by the all-in-one default, so not
// refused by a default) is not.
//
// attack: egress-config-in-force
func TestAttackEgressAllowInForce(t *testing.T) {
	m := mustRunMainWith(t, func(m *Main) { m.Config.EgressAllow = "127.0.0.1" })
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
