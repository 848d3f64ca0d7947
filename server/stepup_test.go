package main

import (
	"net/http"
	"strings"
	"testing"
)

// Through the real provider's tokens: a password sign-in does not reach
// the console's most dangerous actions, by REST (401 with RFC 9470's
// challenge) or GraphQL (INSUFFICIENT_USER_AUTHENTICATION with what to ask
// for), and the customer stays.
// attack: step-up-dangerous-without-mfa
func TestAttackStepUpWithoutMFA(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	req, _ := http.NewRequest(http.MethodDelete, m.Config.ConsoleURL+"/api/v1/customers/"+DemoAcmeCustomerID, nil)
	req.Header.Set("Authorization", "Bearer "+alice.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `error="insufficient_user_authentication"`) ||
		!strings.Contains(challenge, `acr_values="urn:platform:acr:mfa"`) || !strings.Contains(challenge, "max_age=600") {
		t.Fatalf("delete the customer with a password sign-in: %d %q", resp.StatusCode, challenge)
	}
	gql := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", alice.AccessToken,
		map[string]any{"query": `mutation { deleteCustomer(id: "` + DemoAcmeCustomerID + `") }`})
	body := string(mustJSON(gql.body))
	if !strings.Contains(body, `"code":"INSUFFICIENT_USER_AUTHENTICATION"`) || !strings.Contains(body, `"acrValues":"urn:platform:acr:mfa"`) ||
		!strings.Contains(body, `"maxAge":600`) {
		t.Fatalf("GraphQL deleteCustomer with a password sign-in: %d %s", gql.status, body)
	}
	if code, c := adminCall(t, m, alice.AccessToken, "GET", "/customers/"+DemoAcmeCustomerID, nil); code != http.StatusOK {
		t.Fatalf("the customer after the refusals: %d %v", code, c)
	}
}
