package idp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// A client whose client_id is its metadata document's URL signs a user of
// its customer's organization in with the code flow and PKCE, gets tokens,
// refreshes them and pushes a request; the document is fetched once and the
// client recorded as the customer's; discovery says it is supported.
func TestClientDocumentFlow(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/client.json", "max-age=600")
	clientID := h.url("/client.json")
	r := ti.docRP(clientID, gooidc.ScopeOfflineAccess)

	tok, _ := ti.loginTokens(r, bob)
	raw, _ := tok.Extra("id_token").(string)
	idt, err := r.verifier.Verify(r.ctx, raw)
	if err != nil || idt.Subject != userBob {
		t.Fatalf("id_token: %v (subject %v)", err, idt)
	}
	if tok.RefreshToken == "" {
		t.Fatal("no refresh token")
	}
	if code, out := ti.refreshRaw(t, clientID, tok.RefreshToken); code != http.StatusOK || out["access_token"] == nil {
		t.Fatalf("refresh: %d %v", code, out)
	}
	if code, body := ti.pushRaw(clientID, docPush()); code != http.StatusCreated {
		t.Fatalf("push: %d %s", code, body)
	}
	if n := h.hitsOf("/client.json"); n != 1 {
		t.Fatalf("the document was fetched %d times, want once", n)
	}
	app, err := ti.st.ApplicationByClientID(context.Background(), clientID)
	if err != nil || app.MetadataCustomerID != docCustomer || app.Name != "Doc Client" || app.Kind != platform.AppPublic ||
		app.ClientURI != "https://example.com/" || app.MetadataFetchedAt.IsZero() {
		t.Fatalf("recorded client: %+v, %v", app, err)
	}

	resp, body := ti.browser().get(ti.issuer + DiscoveryPath)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"client_id_metadata_document_supported":true`) {
		t.Fatalf("discovery: %d %s", resp.StatusCode, body)
	}
}

// A stored document holds for its max-age (within the bounds), then is
// fetched again, once however many requests want it at the same time; the
// client's first use is recorded as the customer's client.registered.
func TestClientDocumentCache(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/c.json", "public, max-age=120")
	clientID := h.url("/c.json")
	r := ti.docRP(clientID)
	ti.loginTokens(r, bob)
	ti.clock.offset = time.Minute // within max-age: no fetch
	ti.loginTokens(r, bob)
	if n := h.hitsOf("/c.json"); n != 1 {
		t.Fatalf("fetched %d times within max-age", n)
	}
	h.serveDoc("/c.json", "max-age=120", "client_name", `"Renamed"`)
	ti.clock.offset = 3 * time.Minute // expired: every request at once wants it
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := ti.p.core.docs.admit(context.Background(), clientID, orgB); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := h.hitsOf("/c.json"); n != 2 {
		t.Fatalf("fetched %d times, want 2 (once more after it expired)", n)
	}
	app, _ := ti.st.ApplicationByClientID(context.Background(), clientID)
	if app.Name != "Renamed" {
		t.Fatalf("the document fetched again was not stored: %q", app.Name)
	}
	// the first use is the customer's client.registered event; fetching
	// the document again is none
	evs := ti.events(audit.ClientRegistered, everyone)
	if len(evs) != 1 || evs[0].CustomerID == nil || *evs[0].CustomerID != docCustomer || evs[0].Target.ID != clientID ||
		evs[0].Details.Method != methodMetadataDocument {
		t.Fatalf("client.registered events = %+v, want one of the first use", evs)
	}
	for cc, want := range map[string]time.Duration{"": docDefaultAge, "max-age=5": docMinAge, "max-age=999999999": docMaxAge,
		"no-store": docMinAge, "private, max-age=3600": time.Hour, "max-age=x": docDefaultAge} {
		if got := documentAge(cc); got != want {
			t.Errorf("documentAge(%q) = %v, want %v", cc, got, want)
		}
	}
}

// The rules of a client_id that is a URL.
func TestClientDocumentURL(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"https://example.com/c", "https://example.com:8443/a/b.json"} {
		if _, err := documentURL(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	for _, id := range []string{"http://example.com/c", "https://example.com", "https://example.com/", "https://u:p@example.com/c",
		"https://example.com/c#f", "https://example.com/c?q=1", "https://example.com/a/../c", "https://Example.com/c",
		"https://example.com/a/%2e%2e/c", "ftp://example.com/c"} {
		if _, err := documentURL(id); platform.ErrorCode(err) != platform.EINVALID {
			t.Errorf("%s accepted", id)
		}
	}
	if looksLikeDocumentURL("app-client") || !looksLikeDocumentURL("http://x/y") {
		t.Error("looksLikeDocumentURL")
	}
}

// A document on a verified domain that resolves to an internal address,
// and a client_id naming a loopback address, are never fetched.
// attack: client-doc-internal-address
func TestAttackClientDocumentInternalAddress(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy(), true) // no internal address allowed
	h.serveDoc("/c.json", "")
	ti.refusedAuthorize(ti.docRP(h.url("/c.json")), "refused by the egress policy")
	ti.noClientRow(h.url("/c.json"))
	loopback := strings.Replace(h.url("/c.json"), docDomain, "127.0.0.1", 1)
	ti.refusedAuthorize(ti.docRP(loopback), "no organization accepts client metadata documents")
	for _, host := range []string{"10.0.0.1", "169.254.169.254", "[::1]"} {
		ti.refusedAuthorize(ti.docRP("https://"+host+"/c.json"), "no organization accepts client metadata documents")
	}
	if n := h.hitsOf("/c.json"); n != 0 {
		t.Fatalf("the internal address was fetched %d times", n)
	}
}

// A document answered by a redirect to an internal address is refused and
// the redirect not followed.
// attack: client-doc-redirect
func TestAttackClientDocumentRedirectToInternal(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	internal := newDocHost(t)
	internal.serveDoc("/secret", "")
	h.serve("/c.json", docAnswer{status: http.StatusFound, location: internal.srv.URL + "/secret"})
	ti.refusedAuthorize(ti.docRP(h.url("/c.json")), "redirect not followed")
	if n := internal.hitsOf("/secret"); n != 0 {
		t.Fatalf("the redirect was followed %d times", n)
	}
	ti.noClientRow(h.url("/c.json"))
}

// A document larger than 5 KiB is refused, with or without its length.
// attack: client-doc-oversized
func TestAttackClientDocumentOversized(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/big.json", "", "padding", `"`+strings.Repeat("x", docMaxBytes)+`"`)
	ti.refusedAuthorize(ti.docRP(h.url("/big.json")), "larger than 5120 bytes")
	ti.noClientRow(h.url("/big.json"))
}

// A document whose client_id is not the URL it is served at is refused.
// attack: client-doc-client-id-mismatch
func TestAttackClientDocumentClientIDMismatch(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	for path, id := range map[string]string{"/a.json": h.url("/other.json"), "/b.json": h.url("/b.json") + "/",
		"/c.json": strings.Replace(h.url("/c.json"), "https://", "https://evil.", 1)} {
		h.serveDoc(path, "", "client_id", `"`+id+`"`)
		ti.refusedAuthorize(ti.docRP(h.url(path)), "must name the URL it is served at")
		ti.noClientRow(h.url(path))
	}
}

// An authorization request whose redirect_uri the document does not name
// is refused on the provider's page, never redirected.
// attack: client-doc-redirect-uri
func TestAttackClientDocumentRedirectURI(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/c.json", "")
	r := ti.docRP(h.url("/c.json"))
	for _, evil := range []string{"https://evil.example/cb", appRedirect + "/x", strings.Replace(appRedirect, "127.0.0.1", "localhost", 1)} {
		r.cfg.RedirectURL = evil
		resp, body := ti.browser().get(r.authURL(newFlow()))
		if resp.StatusCode < 400 || resp.Header.Get("Location") != "" {
			t.Fatalf("redirect_uri %s: %d Location=%q\n%.500s", evil, resp.StatusCode, resp.Header.Get("Location"), body)
		}
	}
}

// A customer that has not turned the documents on, a request that does not
// name the client's organization (or names another) and a host no
// customer holds verified are refused before anything is fetched.
// attack: client-doc-not-enabled
func TestAttackClientDocumentNotEnabled(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	off := docIDP(t, h, h.policy("127.0.0.1/32"), false)
	h.serveDoc("/c.json", "")
	off.refusedAuthorize(off.docRP(h.url("/c.json")), "no organization accepts client metadata documents")
	if code, body := off.pushRaw(h.url("/c.json"), docPush()); code != http.StatusUnauthorized || !strings.Contains(body, "invalid_client") {
		t.Fatalf("push: %d %s", code, body)
	}

	on := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	r := on.rp(gooidc.ScopeOpenID) // no org scope
	r.cfg.ClientID = h.url("/c.json")
	on.refusedAuthorize(r, "must name the organization this client belongs to")
	r.cfg.Scopes = []string{gooidc.ScopeOpenID, ScopeOrgPrefix + orgA}
	on.refusedAuthorize(r, "must name the organization this client belongs to")
	if n := h.hitsOf("/c.json"); n != 0 {
		t.Fatalf("fetched %d times for requests that were refused", n)
	}
	// bob's sign-in works once the request names orgB; alice (orgA) cannot sign in to it
	on.loginTokens(on.docRP(h.url("/c.json")), bob)
	_, page := on.browser().get(on.docRP(h.url("/c.json")).authURL(newFlow()))
	resp, _ := on.browser().submitLogin(on.issuer, page, alice, goodPass)
	if strings.HasPrefix(resp.Header.Get("Location"), appRedirect) {
		t.Fatal("a user of another organization signed in to the customer's client")
	}
}

// A client_id that is an http URL (or otherwise not a document's URL) is
// refused, never fetched.
// attack: client-doc-http
func TestAttackClientDocumentHTTP(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/c.json", "")
	plain := strings.Replace(h.url("/c.json"), "https://", "http://", 1)
	ti.refusedAuthorize(ti.docRP(plain), "must use https")
	ti.refusedAuthorize(ti.docRP(h.base+"/"), "must have a path")
	ti.refusedAuthorize(ti.docRP(h.url("/c.json")+"?x=1"), "must not have a query")
	if n := h.hitsOf("/c.json"); n != 0 {
		t.Fatalf("fetched %d times", n)
	}
	ti.noClientRow(plain)
}

// A blocked client gets nothing more: its refresh tokens and sign-ins are
// refused, even once its document is fetched again.
// attack: client-doc-blocked
func TestAttackClientDocumentBlocked(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/c.json", "max-age=60")
	clientID := h.url("/c.json")
	r := ti.docRP(clientID, gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, bob)
	if err := ti.st.BlockMetadataClient(context.Background(), docCustomer, clientID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if code, out := ti.refreshRaw(t, clientID, tok.RefreshToken); code == http.StatusOK {
		t.Fatalf("refresh of a blocked client: %v", out)
	}
	ti.refusedAuthorize(r, "blocked by its organization")
	ti.clock.offset = 2 * time.Minute
	ti.refusedAuthorize(r, "blocked by its organization")
	if code, body := ti.pushRaw(clientID, docPush()); code != http.StatusUnauthorized {
		t.Fatalf("push of a blocked client: %d %s", code, body)
	}
	// and the tokens it had end with the block
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("the blocked client's refresh token still works")
	}
}

// Documents that break the rules are refused: a client secret, jwks_uri,
// a secret method, no name, an http redirect URI off loopback, another type.
// attack: client-doc-invalid
func TestAttackClientDocumentInvalid(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	cases := map[string][]string{
		"/secret.json":  {"client_secret", `"s3cret"`},
		"/jwksuri.json": {"jwks_uri", `"https://example.com/jwks"`, "token_endpoint_auth_method", `"private_key_jwt"`},
		"/basic.json":   {"token_endpoint_auth_method", `"client_secret_basic"`},
		"/noname.json":  {"client_name", `""`},
		"/plain.json":   {"redirect_uris", `["http://app.example/cb"]`},
		"/grant.json":   {"grant_types", `["implicit"]`},
		"/logo.json":    {"logo_uri", `"javascript:alert(1)"`},
	}
	for path, extra := range cases {
		h.serveDoc(path, "", extra...)
		ti.refusedAuthorize(ti.docRP(h.url(path)), "metadata document")
		ti.noClientRow(h.url(path))
	}
	h.serve("/html.json", docAnswer{contentType: "text/html", body: `{}`})
	ti.refusedAuthorize(ti.docRP(h.url("/html.json")), "not application/json")
	h.serve("/missing.json", docAnswer{status: http.StatusNotFound, contentType: "application/json", body: `{}`})
	ti.refusedAuthorize(ti.docRP(h.url("/missing.json")), "status 404")
}

// A customer holds at most store.MaxMetadataClients document clients it has
// not blocked: every path of its host that answers a valid document would
// otherwise add a row. Beyond them a new client id is refused before its
// document is fetched; a known one goes on working; blocking one makes
// room.
// attack: client-doc-unbounded
func TestAttackClientDocumentUnbounded(t *testing.T) {
	t.Parallel()
	h := newDocHost(t)
	ti := docIDP(t, h, h.policy("127.0.0.1/32"), true)
	h.serveDoc("/known.json", "max-age=600")
	known := ti.docRP(h.url("/known.json"))
	ti.loginTokens(known, bob)
	ctx, now := context.Background(), time.Now().UTC().Truncate(time.Second)
	for i := 1; i < store.MaxMetadataClients; i++ {
		id := h.url(fmt.Sprintf("/filler-%d.json", i))
		if _, err := ti.st.SaveMetadataClient(ctx, &platform.Application{AppID: fmt.Sprintf("app-filler-%d", i), ClientID: id,
			Name: "Filler", Kind: platform.AppPublic, AuthMethod: platform.AuthNone, RedirectURIs: []string{appRedirect},
			CreatedAt: now, MetadataCustomerID: docCustomer, MetadataFetchedAt: now, MetadataExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	h.serveDoc("/one-more.json", "")
	ti.refusedAuthorize(ti.docRP(h.url("/one-more.json")), "metadata document clients already")
	if n := h.hitsOf("/one-more.json"); n != 0 {
		t.Fatalf("a document beyond the customer's budget was fetched %d times", n)
	}
	ti.noClientRow(h.url("/one-more.json"))
	ti.loginTokens(known, bob) // a known client still signs in

	if err := ti.st.BlockMetadataClient(ctx, docCustomer, h.url("/filler-1.json"), now); err != nil {
		t.Fatal(err)
	}
	ti.loginTokens(ti.docRP(h.url("/one-more.json")), bob)
}
