package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testClientMetadata: the customer a document's host belongs to (a
// verified domain and the setting on), the document clients' rows as their
// cache (inserted, replaced, never over another application), listed and
// blocked (D-client-metadata-documents).
func testClientMetadata(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "cust-doc", "Doc", "org-doc")
	claim := &store.DomainClaim{ID: "claim-doc", CustomerID: "cust-doc", Domain: "tools.example", Token: "t", CreatedBy: "u", CreatedAt: ts}
	if err := st.CreateDomainClaim(ctx, claim); err != nil {
		t.Fatal(err)
	}
	_, err := st.ClientMetadataCustomer(ctx, "tools.example")
	wantCode(t, err, platform.ENOTFOUND) // not verified, setting off
	if err := st.MarkDomainVerified(ctx, claim.ID, store.DomainDNS, ts); err != nil {
		t.Fatal(err)
	}
	_, err = st.ClientMetadataCustomer(ctx, "tools.example")
	wantCode(t, err, platform.ENOTFOUND) // setting off
	if on, err := st.CustomerClientMetadataDocuments(ctx, "cust-doc"); err != nil || on {
		t.Fatalf("default = %v, %v", on, err)
	}
	if err := st.SetCustomerClientMetadataDocuments(ctx, "cust-doc", true); err != nil {
		t.Fatal(err)
	}
	if m, err := st.ClientMetadataCustomer(ctx, "tools.example"); err != nil || m.CustomerID != "cust-doc" || m.OrgID != "org-doc" {
		t.Fatalf("customer = %+v, %v", m, err)
	}
	wantCode(t, st.SetCustomerClientMetadataDocuments(ctx, "nobody", true), platform.ENOTFOUND)

	id := "https://tools.example/client.json"
	app := &platform.Application{AppID: "app-doc", ClientID: id, Name: "Doc", Kind: platform.AppPublic, AuthMethod: platform.AuthNone,
		RedirectURIs: []string{"https://tools.example/cb"}, CreatedAt: ts, MetadataCustomerID: "cust-doc", MetadataFetchedAt: ts,
		MetadataExpiresAt: ts.Add(time.Hour), ClientURI: "https://tools.example/"}
	if created, err := st.SaveMetadataClient(ctx, app); err != nil || !created {
		t.Fatalf("first use: created %v, %v", created, err)
	}
	again := *app
	again.AppID, again.Name, again.MetadataFetchedAt, again.RedirectURIs = "app-other", "Renamed", ts.Add(time.Minute), []string{"http://127.0.0.1/cb"}
	if created, err := st.SaveMetadataClient(ctx, &again); err != nil || created {
		t.Fatalf("fetched again: created %v, %v", created, err)
	}
	got, err := st.ApplicationByClientID(ctx, id)
	if err != nil || got.AppID != "app-doc" || got.Name != "Renamed" || !got.MetadataFetchedAt.Equal(ts.Add(time.Minute)) ||
		got.RedirectURIs[0] != "http://127.0.0.1/cb" || got.ClientURI != "https://tools.example/" || !got.BlockedAt.IsZero() {
		t.Fatalf("replaced = %+v, %v", got, err)
	}
	other := again
	other.MetadataCustomerID = "cust-else"
	_, err = st.SaveMetadataClient(ctx, &other)
	wantCode(t, err, platform.ECONFLICT)
	plain := &platform.Application{AppID: "app-plain", ClientID: "https://tools.example/plain", Name: "Plain", Kind: platform.AppPublic,
		RedirectURIs: []string{"https://tools.example/cb"}, CreatedAt: ts}
	if err := st.CreateApplication(ctx, plain); err != nil {
		t.Fatal(err)
	}
	over := again
	over.ClientID = plain.ClientID
	_, err = st.SaveMetadataClient(ctx, &over)
	wantCode(t, err, platform.ECONFLICT)

	if list, err := st.MetadataClients(ctx, "cust-doc"); err != nil || len(list) != 1 || list[0].ClientID != id {
		t.Fatalf("list = %v, %v", list, err)
	}
	wantCode(t, st.BlockMetadataClient(ctx, "cust-else", id, ts), platform.ENOTFOUND)
	if err := st.BlockMetadataClient(ctx, "cust-doc", id, ts); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.ApplicationByClientID(ctx, id); !got.BlockedAt.Equal(ts) {
		t.Fatalf("blocked at %v", got.BlockedAt)
	}
	if err := st.BlockMetadataClient(ctx, "cust-doc", id, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.ApplicationByClientID(ctx, id); !got.BlockedAt.IsZero() {
		t.Fatalf("still blocked at %v", got.BlockedAt)
	}
}
