package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/idp"
)

// tokenExchange posts an RFC 8693 token exchange to the provider of m as
// the public client clientID (or with Basic credentials when secret is set).
func tokenExchange(t *testing.T, m *Main, clientID, secret string, form url.Values) tokenAnswer {
	t.Helper()
	form.Set("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
	if secret == "" {
		form.Set("client_id", clientID)
	}
	req, _ := http.NewRequest(http.MethodPost, m.Config.IssuerURL+"/oauth/v2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if secret != "" {
		req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return tokenAnswer{status: resp.StatusCode, body: out}
}

// impersonationWorld is a platform whose Acme customer allows support
// impersonation, with the platform admin's and Alice's (the owner's) tokens.
type impersonationWorld struct {
	m            *Main
	admin, alice string
}

func newImpersonationWorld(t *testing.T, allow bool) *impersonationWorld {
	t.Helper()
	m := MustRunMain(t)
	w := &impersonationWorld{m: m}
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	w.admin, w.alice = admin.AccessToken, alice.AccessToken
	if allow {
		if code, body := adminCall(t, m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy",
			map[string]any{"allowed": true}); code != http.StatusOK {
			t.Fatalf("allow impersonation: %d %v", code, body)
		}
	}
	return w
}

// start starts an impersonation of userID by the caller of token and
// answers its subject token.
func (w *impersonationWorld) start(t *testing.T, token, userID string) (string, map[string]any) {
	t.Helper()
	code, body := adminCall(t, w.m, token, "POST", "/users/"+userID+"/impersonate", map[string]any{"reason": "ticket 4711"})
	if code != http.StatusCreated {
		t.Fatalf("impersonate: %d %v", code, body)
	}
	return body["subjectToken"].(string), body
}

// exchange exchanges subject with actor's token at the token endpoint as the console.
func (w *impersonationWorld) exchange(t *testing.T, subject, actor string) tokenAnswer {
	t.Helper()
	return tokenExchange(t, w.m, w.m.Config.ConsoleClientID, "", url.Values{"subject_token": {subject},
		"subject_token_type": {idp.TokenTypeImpersonation}, "actor_token": {actor},
		"actor_token_type": {"urn:ietf:params:oauth:token-type:access_token"}})
}

// Support impersonation end to end, through the real token endpoint: the
// customer allows it, the platform admin starts it with a reason, the
// console exchanges the one-time subject token with the admin's own token
// as actor_token for a token whose sub is the user and whose act names
// the admin, no refresh token, at most an hour; /auth/me shows who acts;
// writes are the user's, with the user's role, audited with the
// impersonator; the customer lists it; End revokes it at once; start,
// write and end are in the customer's audit log.
// spec: D-impersonation
func TestImpersonationEndToEnd(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	m := w.m
	subject, start := w.start(t, w.admin, demoBobID)
	if start["subjectTokenType"] != idp.TokenTypeImpersonation || start["expiresIn"] != float64(60) {
		t.Fatalf("start = %v", start)
	}
	ans := w.exchange(t, subject, w.admin)
	if ans.status != http.StatusOK || ans.accessToken() == "" {
		t.Fatalf("exchange: %d %v", ans.status, ans.body)
	}
	if ans.body["refresh_token"] != nil || ans.body["issued_token_type"] != "urn:ietf:params:oauth:token-type:access_token" ||
		ans.body["token_type"] != "Bearer" {
		t.Fatalf("exchange answer: %v", ans.body)
	}
	if exp, _ := ans.body["expires_in"].(float64); exp <= 0 || exp > 3600 {
		t.Fatalf("expires_in = %v, want at most an hour", ans.body["expires_in"])
	}
	claims := jwtClaims(t, ans.accessToken())
	act, _ := claims["act"].(map[string]any)
	if claims["sub"] != demoBobID || act["sub"] != demoAdminID || claims["exp"].(float64)-claims["iat"].(float64) > 3600 {
		t.Fatalf("claims = %v", claims)
	}
	tok := ans.accessToken()
	code, me := adminCall(t, m, tok, "GET", "/auth/me", nil)
	actor, _ := me["actor"].(map[string]any)
	if code != http.StatusOK || me["userId"] != demoBobID || me["role"] != "member" || actor["userId"] != demoAdminID ||
		actor["email"] != "admin@platform.example" || actor["impersonationId"] != start["id"] {
		t.Fatalf("/auth/me while impersonating: %d %v", code, me)
	}
	// the user's role, never more: a member manages no users
	if code, _ := adminCall(t, m, tok, "GET", "/users", nil); code != http.StatusForbidden {
		t.Fatalf("a member's refused read while impersonating = %d, want 403", code)
	}
	// a write of the user's own, audited with the impersonator
	if code, body := adminCall(t, m, tok, "POST", "/me/subscriptions", map[string]any{"eventType": "invoice.issued"}); code != http.StatusCreated {
		t.Fatalf("the user's own write while impersonating: %d %v", code, body)
	}
	// the customer sees it
	code, list := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	items, _ := list["items"].([]any)
	if code != http.StatusOK || len(items) != 1 {
		t.Fatalf("the customer's list: %d %v", code, list)
	}
	if it := items[0].(map[string]any); it["state"] != "active" || it["actorEmail"] != "admin@platform.example" ||
		it["userEmail"] != "bob@acme.example" || it["reason"] != "ticket 4711" {
		t.Fatalf("listed: %v", it)
	}
	// End (the banner's): the token stops at once
	if code, body := adminCall(t, m, tok, "DELETE", "/me/impersonation", nil); code != http.StatusNoContent {
		t.Fatalf("end: %d %v", code, body)
	}
	if code, _ := adminCall(t, m, tok, "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("the token after End = %d, want 401", code)
	}
	_, list = adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	if it := list["items"].([]any)[0].(map[string]any); it["state"] != "ended" || it["endedBy"] != demoAdminID {
		t.Fatalf("after End: %v", it)
	}
	// the customer's audit log: the start and the end, the end made as the
	// user with the impersonator; the platform's: the user's own write too
	for _, who := range []struct {
		token string
		want  []string
	}{
		{w.alice, []string{"user.impersonate", "impersonation.end_own"}},
		{w.admin, []string{"user.impersonate", "subscription.create", "impersonation.end_own"}},
	} {
		code, log := adminCall(t, m, who.token, "GET", "/audit-log?limit=50", nil)
		seen := map[string]bool{}
		for _, e := range log["items"].([]any) {
			ev := e.(map[string]any)
			a, _ := ev["actor"].(map[string]any)
			op, _ := ev["operation"].(string)
			switch {
			case op == "user.impersonate" && a["userId"] == demoAdminID && a["impersonatorId"] == nil:
				seen[op] = true
			case a["userId"] == demoBobID && a["impersonatorId"] == demoAdminID:
				seen[op] = true
			}
		}
		for _, op := range who.want {
			if code != http.StatusOK || !seen[op] {
				t.Errorf("audit log %d lacks %s with its impersonator: %v", code, op, seen)
			}
		}
	}
}

// The customer ends an impersonation from its list, and turning the
// permission off ends every running one.
// spec: D-impersonation
func TestImpersonationEndedByCustomer(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	subject, start := w.start(t, w.admin, demoBobID)
	tok := w.exchange(t, subject, w.admin).accessToken()
	if code, body := adminCall(t, w.m, w.alice, "DELETE", "/impersonations/"+start["id"].(string), nil); code != http.StatusOK ||
		body["state"] != "ended" {
		t.Fatalf("the customer ends it: %d %v", code, body)
	}
	if code, _ := adminCall(t, w.m, tok, "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("after the customer ended it = %d", code)
	}
	subject, _ = w.start(t, w.admin, demoBobID)
	tok = w.exchange(t, subject, w.admin).accessToken()
	if code, _ := adminCall(t, w.m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy",
		map[string]any{"allowed": false}); code != http.StatusOK {
		t.Fatalf("forbid: %d", code)
	}
	if code, _ := adminCall(t, w.m, tok, "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("after the customer forbade impersonation = %d", code)
	}
}

// A customer that has not allowed support impersonation (the default)
// gets none: the start is refused, and a subject token issued before the
// customer turned it off is not exchanged.
// attack: impersonation-forbidden-by-customer
func TestAttackImpersonationForbiddenByCustomer(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, false)
	if code, body := adminCall(t, w.m, w.admin, "POST", "/users/"+demoBobID+"/impersonate",
		map[string]any{"reason": "curious"}); code != http.StatusForbidden {
		t.Fatalf("impersonate without the customer's permission: %d %v", code, body)
	}
	adminCall(t, w.m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy", map[string]any{"allowed": true})
	subject, _ := w.start(t, w.admin, demoBobID)
	adminCall(t, w.m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy", map[string]any{"allowed": false})
	if a := w.exchange(t, subject, w.admin); a.status != http.StatusBadRequest || a.errorCode() != "invalid_grant" {
		t.Fatalf("exchange after the customer forbade it: %d %v", a.status, a.body)
	}
	// support cannot decide for the customer
	if code, _ := adminCall(t, w.m, w.admin, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy",
		map[string]any{"allowed": true}); code != http.StatusForbidden {
		t.Fatalf("the platform admin turns it on = %d, want 403", code)
	}
}

// impersonateOwner starts and exchanges an impersonation of Acme's owner
// by the platform admin, and answers its token.
func (w *impersonationWorld) impersonateOwner(t *testing.T) string {
	t.Helper()
	subject, _ := w.start(t, w.admin, demoAliceID)
	return w.exchange(t, subject, w.admin).accessToken()
}

// While impersonating, the customer user's role and scope apply and never
// more: every internal-infrastructure route is refused, even when the
// impersonating support user could reach it, centrally from the token's act.
// attack: impersonation-internal-routes
func TestAttackImpersonationInternalRoutes(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	tok := w.impersonateOwner(t)
	if code, me := adminCall(t, w.m, tok, "GET", "/auth/me", nil); code != http.StatusOK || me["role"] != "owner" {
		t.Fatalf("me: %d %v", code, me)
	}
	for _, r := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/instances/" + DemoInstanceID + "/resolve-database-uri", nil},
		{"GET", "/environment", nil},
		{"GET", "/releases", nil},
		{"GET", "/system-workers", nil},
		{"GET", "/internal-users", nil},
		{"POST", "/users/" + demoBobID + "/impersonate", map[string]any{"reason": "chain"}},
	} {
		if code, body := adminCall(t, w.m, tok, r.method, r.path, r.body); code != http.StatusForbidden {
			t.Errorf("%s %s while impersonating the owner = %d, want 403: %v", r.method, r.path, code, body)
		}
	}
	// GraphQL decides the same way
	gql := call(t, nil, http.MethodPost, w.m.Config.ConsoleURL+"/graphql", tok,
		map[string]any{"query": `mutation { resolveDatabaseUri(id: "` + DemoInstanceID + `") }`})
	if body := string(mustJSON(gql.body)); !strings.Contains(body, `"code":"FORBIDDEN"`) {
		t.Fatalf("GraphQL resolveDatabaseUri while impersonating: %s", body)
	}
}

// Impersonating the customer's owner gives none of the owner's own
// actions: transferring ownership, deleting the customer, deciding on
// support impersonation.
// attack: impersonation-owner-transfer
func TestAttackImpersonationOwnerTransfer(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	tok := w.impersonateOwner(t)
	for _, r := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/customers/" + DemoAcmeCustomerID + "/transfer-ownership", map[string]any{"userId": demoBobID}},
		{"DELETE", "/customers/" + DemoAcmeCustomerID, nil},
		{"PUT", "/customers/" + DemoAcmeCustomerID + "/impersonation-policy", map[string]any{"allowed": true}},
	} {
		if code, body := adminCall(t, w.m, tok, r.method, r.path, r.body); code != http.StatusForbidden {
			t.Errorf("%s %s while impersonating the owner = %d, want 403: %v", r.method, r.path, code, body)
		}
	}
	// the same owner, signed in itself, reaches the owner's action (step-up aside)
	if code, _ := adminCall(t, w.m, w.alice, "POST", "/customers/"+DemoAcmeCustomerID+"/transfer-ownership",
		map[string]any{"userId": demoBobID}); code == http.StatusForbidden {
		t.Fatalf("the owner itself is refused the transfer: %d", code)
	}
}

// An impersonation token is never exchanged again, neither as actor of a
// new impersonation nor as subject of a delegation (no act chains).
// attack: impersonation-chain
func TestAttackImpersonationChain(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	subject, _ := w.start(t, w.admin, demoBobID)
	tok := w.exchange(t, subject, w.admin).accessToken()
	second, _ := w.start(t, w.admin, demoAliceID)
	if a := w.exchange(t, second, tok); a.status != http.StatusBadRequest || a.errorCode() != "invalid_grant" {
		t.Fatalf("the impersonation token as actor_token: %d %v", a.status, a.body)
	}
	clientID, secret := w.serviceAccount(t, DemoAcmeCustomerID)
	if a := tokenExchange(t, w.m, clientID, secret, url.Values{"subject_token": {tok},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}}); a.status != http.StatusBadRequest || a.errorCode() != "invalid_grant" {
		t.Fatalf("the impersonation token delegated: %d %v", a.status, a.body)
	}
}

// An impersonation lasts at most an hour and cannot be extended: the token
// ends within the hour, no refresh token is issued whatever is asked, and
// a refresh token cannot be requested.
// attack: impersonation-beyond-an-hour
func TestAttackImpersonationBeyondAnHour(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	subject, _ := w.start(t, w.admin, demoBobID)
	form := url.Values{"subject_token": {subject}, "subject_token_type": {idp.TokenTypeImpersonation}, "actor_token": {w.admin},
		"actor_token_type":     {"urn:ietf:params:oauth:token-type:access_token"},
		"requested_token_type": {"urn:ietf:params:oauth:token-type:refresh_token"}}
	if a := tokenExchange(t, w.m, w.m.Config.ConsoleClientID, "", form); a.status != http.StatusBadRequest || a.errorCode() != "invalid_request" {
		t.Fatalf("a refresh token asked for: %d %v", a.status, a.body)
	}
	form.Del("requested_token_type")
	form.Set("scope", "openid offline_access")
	if a := tokenExchange(t, w.m, w.m.Config.ConsoleClientID, "", form); a.status != http.StatusBadRequest || a.errorCode() != "invalid_scope" {
		t.Fatalf("offline_access asked for: %d %v", a.status, a.body)
	}
	form.Del("scope")
	a := tokenExchange(t, w.m, w.m.Config.ConsoleClientID, "", form)
	if a.status != http.StatusOK || a.body["refresh_token"] != nil {
		t.Fatalf("exchange: %d %v", a.status, a.body)
	}
	claims := jwtClaims(t, a.accessToken())
	exp := time.Unix(int64(claims["exp"].(float64)), 0)
	if exp.After(time.Now().Add(time.Hour + time.Minute)) {
		t.Fatalf("the impersonation's token ends at %v, more than an hour away", exp)
	}
}

// The subject token is single use, and only the support user it was
// issued to can exchange it: another support user's actor_token is
// refused and leaves it usable by the rightful one.
// attack: impersonation-subject-token
func TestAttackImpersonationSubjectToken(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	subject, _ := w.start(t, w.admin, demoBobID)
	// another support user: Dana is nobody's support, but any other
	// user's console token stands for "another actor"
	other, _ := demoLogin(t, w.m, w.m.Config.ConsoleClientID, w.m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if a := w.exchange(t, subject, other.AccessToken); a.status != http.StatusBadRequest || a.errorCode() != "invalid_grant" {
		t.Fatalf("another user's actor_token: %d %v", a.status, a.body)
	}
	if a := w.exchange(t, subject, w.admin); a.status != http.StatusOK {
		t.Fatalf("the rightful actor after the refusal: %d %v", a.status, a.body)
	}
	if a := w.exchange(t, subject, w.admin); a.status != http.StatusBadRequest || a.errorCode() != "invalid_grant" {
		t.Fatalf("the subject token replayed: %d %v", a.status, a.body)
	}
	// only the console's client exchanges it
	third, _ := w.start(t, w.admin, demoBobID)
	if a := tokenExchange(t, w.m, w.m.Config.InstanceClientID, "", url.Values{"subject_token": {third},
		"subject_token_type": {idp.TokenTypeImpersonation}, "actor_token": {w.admin},
		"actor_token_type": {"urn:ietf:params:oauth:token-type:access_token"}}); a.status == http.StatusOK {
		t.Fatalf("another client exchanged it: %v", a.body)
	}
}

// serviceAccount makes an admin service account of customerID and answers
// its client credentials.
func (w *impersonationWorld) serviceAccount(t *testing.T, customerID string) (string, string) {
	t.Helper()
	code, sa := adminCall(t, w.m, w.admin, "POST", "/customers/"+customerID+"/service-accounts",
		map[string]any{"name": "delegate-" + randomID(), "role": "admin"})
	if code != http.StatusCreated {
		t.Fatalf("service account: %d %v", code, sa)
	}
	return sa["clientId"].(string), sa["clientSecret"].(string)
}

// Service delegation on the same grant: a service account of the user's
// customer exchanges the user's access token for a token of another
// audience (RFC 8707 resource) with a subset of its scopes, acting for the
// user (act names the service account); revoking the user's grant ends it.
// A service account of another customer gets nothing, nor more scopes.
// spec: D-impersonation
// attack: delegation-other-customer
func TestServiceDelegation(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, false)
	m := w.m
	bob, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	clientID, secret := w.serviceAccount(t, DemoAcmeCustomerID)
	a := tokenExchange(t, m, clientID, secret, url.Values{"subject_token": {bob.AccessToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}, "resource": {m.Config.InstanceURL},
		"scope": {"openid"}})
	if a.status != http.StatusOK || a.body["refresh_token"] != nil || a.body["scope"] != "openid" {
		t.Fatalf("delegation: %d %v", a.status, a.body)
	}
	claims := jwtClaims(t, a.accessToken())
	act, _ := claims["act"].(map[string]any)
	if claims["sub"] != demoBobID || act["sub"] == nil || claims["grant_id"] != jwtClaims(t, bob.AccessToken)["grant_id"] {
		t.Fatalf("delegated claims: %v", claims)
	}
	if r := call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", a.accessToken(), nil); r.status != http.StatusOK {
		t.Fatalf("the delegated token at the data API: %d %v", r.status, r.body)
	}
	if code, _ := adminCall(t, m, a.accessToken(), "GET", "/auth/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("the data API's delegated token at the console = %d", code)
	}
	if r := tokenExchange(t, m, clientID, secret, url.Values{"subject_token": {bob.AccessToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}, "scope": {"openid admin"}}); r.errorCode() != "invalid_scope" {
		t.Fatalf("more scopes than the user's: %d %v", r.status, r.body)
	}
	otherID, otherSecret := w.serviceAccount(t, DemoGlobexCustomerID)
	if r := tokenExchange(t, m, otherID, otherSecret, url.Values{"subject_token": {bob.AccessToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}}); r.status != http.StatusBadRequest || r.errorCode() != "invalid_grant" {
		t.Fatalf("another customer's service account: %d %v", r.status, r.body)
	}
	if r := tokenExchange(t, m, clientID, "wrong", url.Values{"subject_token": {bob.AccessToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}}); r.errorCode() != "invalid_client" {
		t.Fatalf("a wrong secret: %d %v", r.status, r.body)
	}
	// the same grant: Bob signs out, the delegated token ends
	if code, _ := adminCall(t, m, bob.AccessToken, "POST", "/auth/logout", nil); code != http.StatusNoContent {
		t.Fatalf("logout: %d", code)
	}
	if r := call(t, nil, http.MethodGet, m.Config.InstanceURL+"/api/v1/me/tenants", a.accessToken(), nil); r.status != http.StatusUnauthorized {
		t.Fatalf("the delegated token after the user's sign-out: %d", r.status)
	}
}
