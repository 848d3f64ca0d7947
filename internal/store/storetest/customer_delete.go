package storetest

import (
	"testing"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testCustomerDeletion: removing a customer removes the provider's
// applications that were its own (its instances' applications and the
// clients its initial access tokens registered) and no other customer's.
func testCustomerDeletion(t *testing.T, st *store.Store) {
	for _, c := range []string{"gone", "kept"} {
		mustCustomers(t, st, c)
		for _, a := range []*platform.Application{
			{AppID: "inst-app-" + c, ClientID: "inst-client-" + c, Name: "Instance " + c, Kind: platform.AppWeb, SecretHash: "hash", CreatedAt: ts,
				RedirectURIs: []string{"https://" + c + ".example/callback"}, PostLogoutRedirectURIs: []string{}},
			{AppID: "reg-app-" + c, ClientID: "reg-client-" + c, Name: "Registered " + c, Kind: platform.AppPublic, CreatedAt: ts,
				RedirectURIs: []string{"https://" + c + ".example/agent"}, PostLogoutRedirectURIs: []string{}, RegisteredCustomerID: c},
		} {
			if err := st.CreateApplication(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.CreateInstance(ctx, &platform.Instance{ID: "inst-" + c, CustomerID: c, Name: c, URL: "https://" + c + ".example", CreatedAt: ts},
			&platform.InstanceConnection{InstanceID: "inst-" + c, OIDCClientID: "inst-client-" + c, IDPAppID: "inst-app-" + c, UpdatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.DeleteCustomer(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"inst-client-gone", "reg-client-gone"} {
		_, err := st.ApplicationByClientID(ctx, id)
		wantCode(t, err, platform.ENOTFOUND)
	}
	for _, id := range []string{"inst-client-kept", "reg-client-kept"} {
		if _, err := st.ApplicationByClientID(ctx, id); err != nil {
			t.Errorf("another customer's application %s: %v", id, err)
		}
	}
	wantCode(t, st.DeleteCustomer(ctx, "gone"), platform.ENOTFOUND)
}
