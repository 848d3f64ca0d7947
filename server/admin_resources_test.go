package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// SSO configured by a customer's owner through the console API is what
// sign-in offers: resolve-org lists the new identity provider as an sso
// method of the customer's organization.
//
// spec: R4.6-customer-side, R4.1-ro-types
func TestCustomerSSOThroughConsoleAPI(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	code, idp := adminCall(t, m, owner.AccessToken, "POST", "/customers/"+DemoAcmeCustomerID+"/identity-providers",
		map[string]any{"name": "Acme Entra", "issuer": "https://login.acme.example", "clientId": "entra-1", "clientSecret": "s"})
	if code != 201 {
		t.Fatalf("create identity provider: %d %v", code, idp)
	}
	if code, body := adminCall(t, m, owner.AccessToken, "PUT", "/customers/"+DemoAcmeCustomerID+"/sso",
		map[string]any{"ssoAllowed": true}); code != 200 {
		t.Fatalf("allow SSO: %d %v", code, body)
	}
	resp, err := http.Post(m.Config.ConsoleURL+"/api/v1/login/resolve-org", "application/json",
		strings.NewReader(`{"email":"alice@acme.example"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ro struct {
		Type        string
		AuthMethods []struct {
			Methods []struct{ Type, IdpID, Name string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&ro); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, am := range ro.AuthMethods {
		for _, meth := range am.Methods {
			if meth.Type == "sso" && meth.IdpID == idp["id"] && meth.Name == "Acme Entra" {
				found = true
			}
		}
	}
	if ro.Type != "customer" || !found {
		t.Fatalf("resolve-org does not offer the new provider: %+v", ro)
	}
}
