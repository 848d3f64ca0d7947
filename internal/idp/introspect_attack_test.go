package idp

import (
	"context"
	"net/http"
	"testing"
	"time"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/platform/platform/internal/platform"
)

// mustConfidentialService registers a service application (a customer's
// service account at the provider) with secret.
func (ti *testIDP) mustConfidentialService(clientID, secret string) {
	ti.t.Helper()
	if err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "app-" + clientID, ClientID: clientID,
		Name: clientID, Kind: platform.AppService, SecretHash: hashSecret(secret), CreatedAt: time.Now()}); err != nil {
		ti.t.Fatal(err)
	}
}

// Any confidential client, a customer's own service account among them,
// introspected another customer's tokens and learnt that they were live,
// with the user's e-mail and name. Introspection answers only the token's
// own client, a resource server among its audience and the provider's
// management client; anyone else gets {"active":false} and nothing more.
// attack: introspection-across-clients
func TestAttackIntrospectionAcrossClients(t *testing.T) {
	ti := mustIDP(t)
	ti.mustServiceApp() // the management client
	ti.mustConfidentialService("acme-deployer", "acme-deployer-secret-0123456789")
	ti.mustConfidentialService("globex-deployer", "globex-deployer-secret-0123456789")
	ti.mustConfidentialService("orders-api", "orders-api-secret-0123456789")
	token := func(id, secret string) string {
		t.Helper()
		cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: ti.issuer + PathToken}
		tok, err := cc.Token(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return tok.AccessToken
	}
	acme, globex := token("acme-deployer", "acme-deployer-secret-0123456789"), token("globex-deployer", "globex-deployer-secret-0123456789")
	alices, _ := ti.loginTokens(ti.rp(), alice)
	// a token of alice's for the orders API as well (its audience names it)
	forOrders, _, err := ti.p.storage.CreateAccessToken(context.Background(), serviceRequest{subject: userAlice, clientID: appClientID,
		audience: []string{appClientID, "orders-api"}, scopes: []string{"openid", "email", "profile"}})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, caller, secret, token string
		active                      bool
	}{
		{"ErrAnotherCustomersServiceToken", "acme-deployer", "acme-deployer-secret-0123456789", globex, false},
		{"ErrTheOtherWay", "globex-deployer", "globex-deployer-secret-0123456789", acme, false},
		{"ErrAUsersToken", "acme-deployer", "acme-deployer-secret-0123456789", alices.AccessToken, false},
		{"ErrNotAmongTheAudience", "orders-api", "orders-api-secret-0123456789", alices.AccessToken, false},
		{"ErrAnotherAPIsToken", "orders-api", "orders-api-secret-0123456789", globex, false},
		{"OwnToken", "globex-deployer", "globex-deployer-secret-0123456789", globex, true},
		{"ResourceServerOfTheAudience", "orders-api", "orders-api-secret-0123456789", forOrders, true},
		{"ManagementClient", serviceClientID, serviceSecret, alices.AccessToken, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := ti.introspectAs(t, tc.caller, tc.secret, tc.token)
			if code != http.StatusOK || body["active"] != tc.active {
				t.Fatalf("introspection = %d %v, want active %v", code, body, tc.active)
			}
			if !tc.active && len(body) != 1 {
				t.Fatalf("an inactive answer tells more than that: %v", body)
			}
			if tc.active && tc.token != globex && body["email"] != alice {
				t.Fatalf("the token's own answer lacks its claims: %v", body)
			}
		})
	}
	if code, body := ti.introspectAs(t, "acme-deployer", "wrong", globex); code == http.StatusOK || body["active"] == true {
		t.Fatalf("a wrong secret: %d %v", code, body)
	}
}
