package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
)

// seedMetadataClient records the client "Acme MCP" of a metadata document
// on Acme's domain as the identity provider does at its first use, and
// returns its client id.
func seedMetadataClient(t *testing.T, m *Main) string {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	clientID := "https://tools.acme.example/mcp/client.json"
	if _, err := m.Store.SaveMetadataClient(t.Context(), &platform.Application{AppID: randomID(), ClientID: clientID, Name: "Acme MCP",
		Kind: platform.AppPublic, AuthMethod: platform.AuthNone, RedirectURIs: []string{"http://127.0.0.1:9/cb"}, CreatedAt: now,
		MetadataCustomerID: DemoAcmeCustomerID, MetadataFetchedAt: now, MetadataExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return clientID
}

// A customer's owner turns client ID metadata documents on (off by
// default), lists the clients they described (REST and GraphQL) and blocks
// one; a member may do none of it; each write is in the audit log.
// spec: D-client-metadata-documents
func TestClientMetadataAdministration(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	member, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	setting := "/customers/" + DemoAcmeCustomerID + "/client-metadata"
	if code, got := adminCall(t, m, owner.AccessToken, http.MethodGet, setting, nil); code != http.StatusOK || got["enabled"] != false {
		t.Fatalf("default: %d %v", code, got)
	}
	if code, _ := adminCall(t, m, member.AccessToken, http.MethodPut, setting, map[string]any{"enabled": true}); code != http.StatusForbidden {
		t.Fatalf("a member turned them on: %d", code)
	}
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPut, setting, map[string]any{}); code != http.StatusBadRequest {
		t.Fatalf("no enabled: %d", code)
	}
	if code, got := adminCall(t, m, owner.AccessToken, http.MethodPut, setting, map[string]any{"enabled": true}); code != http.StatusOK || got["enabled"] != true {
		t.Fatalf("turn on: %d %v", code, got)
	}

	// the identity provider records a document's client at its first use
	clientID := seedMetadataClient(t, m)
	list := "/customers/" + DemoAcmeCustomerID + "/metadata-clients"
	code, clients := adminCall(t, m, owner.AccessToken, http.MethodGet, list, nil)
	items, _ := clients["items"].([]any)
	if code != http.StatusOK || len(items) != 1 || items[0].(map[string]any)["clientId"] != clientID ||
		items[0].(map[string]any)["lastFetchedAt"] == nil || items[0].(map[string]any)["blockedAt"] != nil {
		t.Fatalf("list: %d %v", code, clients)
	}
	if code, _ := adminCall(t, m, member.AccessToken, http.MethodGet, list, nil); code != http.StatusForbidden {
		t.Fatalf("a member listed them: %d", code)
	}
	block := list + "/block"
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, block, map[string]any{"clientId": "https://other.example/c", "blocked": true}); code != http.StatusNotFound {
		t.Fatalf("blocking another's client: %d", code)
	}
	if code, got := adminCall(t, m, owner.AccessToken, http.MethodPost, block, map[string]any{"clientId": clientID, "blocked": true}); code != http.StatusOK || got["blockedAt"] == nil {
		t.Fatalf("block: %d %v", code, got)
	}
	gql := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", owner.AccessToken, map[string]any{
		"query":     `query($id: ID!) { customer(id: $id) { clientMetadata { enabled } metadataClients { clientId name lastFetchedAt blockedAt } } }`,
		"variables": map[string]any{"id": DemoAcmeCustomerID}})
	if s := string(mustJSON(gql.body)); gql.status != http.StatusOK || !strings.Contains(s, clientID) || !strings.Contains(s, `"enabled":true`) ||
		strings.Contains(s, `"blockedAt":null`) {
		t.Fatalf("GraphQL: %d %s", gql.status, s)
	}
	gql = call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", owner.AccessToken, map[string]any{
		"query":     `mutation($id: ID!, $c: String!) { blockMetadataClient(customerId: $id, clientId: $c, blocked: false) { blockedAt } setClientMetadata(customerId: $id, enabled: false) { enabled } }`,
		"variables": map[string]any{"id": DemoAcmeCustomerID, "c": clientID}})
	if s := string(mustJSON(gql.body)); gql.status != http.StatusOK || !strings.Contains(s, `"blockedAt":null`) || !strings.Contains(s, `"enabled":false`) {
		t.Fatalf("GraphQL mutations: %d %s", gql.status, s)
	}
	_, log := adminCall(t, m, owner.AccessToken, http.MethodGet, "/audit-log?limit=50", nil)
	seen := map[string]int{}
	for _, e := range log["items"].([]any) {
		op, _ := e.(map[string]any)["operation"].(string)
		seen[op]++
	}
	if seen["client_metadata.put"] != 2 || seen["metadata_client.block"] != 2 {
		t.Fatalf("audit log: %v", seen)
	}
}
