package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/testkit"
)

// passwordAttempt posts the identity provider's sign-in form for email and
// password, as the gateway sends a customer's user there (the org scope of
// orgID), and answers the status and the page.
func passwordAttempt(t *testing.T, m *Main, email, password, orgID string) (int, string) {
	t.Helper()
	resp, page := signInForm(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", email, password,
		idp.ScopeOrgPrefix+orgID)
	return resp.StatusCode, string(page)
}

// acmeSignInHook subscribes a webhook of Acme (its owner's token) to its
// sign-ins, at a receiver of the test; delivered runs the dispatcher and
// answers the events the receiver got.
func acmeSignInHook(t *testing.T, m *Main, token string) (delivered func() []map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var got []map[string]any
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		_ = json.NewDecoder(r.Body).Decode(&ev)
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)
	if a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/api/v1/customers/"+DemoAcmeCustomerID+"/webhooks", token,
		map[string]any{"url": rcv.URL, "events": []string{"sign_in"}}); a.status != http.StatusCreated {
		t.Fatalf("webhook = %d %v", a.status, a.body)
	}
	return func() []map[string]any {
		t.Helper()
		if _, err := m.Webhooks.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// auditItems reads a page of the console's audit log (query: its filters).
func auditItems(t *testing.T, m *Main, token, query string) []map[string]any {
	t.Helper()
	a := call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/audit-log?limit=500&"+query, token, nil)
	if a.status != http.StatusOK {
		t.Fatalf("audit log ?%s = %d %v", query, a.status, a.body)
	}
	var out []map[string]any
	for _, it := range a.body["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// exportAll follows the console's export from the beginning as token,
// until it has read at least want events (on PostgreSQL a transaction of
// another database may hold the stream back a moment).
func exportAll(t *testing.T, m *Main, token string, want func([]map[string]any) bool) []map[string]any {
	t.Helper()
	var out []map[string]any
	testkit.Eventually(t, "the export reads the events", func() bool {
		out = out[:0]
		for after := ""; ; {
			req, _ := http.NewRequest(http.MethodGet, m.Config.ConsoleURL+"/api/v1/audit-log/export?limit=100&after="+url.QueryEscape(after), nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("export = %d %s", resp.StatusCode, body)
			}
			n := 0
			sc := bufio.NewScanner(bytes.NewReader(body))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var ev map[string]any
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					t.Fatalf("an export line: %v: %s", err, sc.Bytes())
				}
				out, n = append(out, ev), n+1
			}
			after = resp.Header.Get("X-Next-Cursor")
			if n < 100 {
				return want(out)
			}
		}
	})
	return out
}

// gqlAudit reads the console's auditLog through GraphQL (args: its
// arguments) with the fields of fields.
func gqlAudit(t *testing.T, m *Main, token, args, fields string) []map[string]any {
	t.Helper()
	a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", token,
		map[string]any{"query": "{ auditLog(first: 500" + args + ") { items { " + fields + " } } }"})
	data, _ := a.body["data"].(map[string]any)
	if a.status != http.StatusOK || data == nil {
		t.Fatalf("auditLog = %d %v", a.status, a.body)
	}
	var out []map[string]any
	for _, it := range data["auditLog"].(map[string]any)["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func actorEmail(ev map[string]any) string {
	a, _ := ev["actor"].(map[string]any)
	s, _ := a["email"].(string)
	return s
}

// A customer's view of failed sign-ins does not tell whether an address
// has an account. Through the gateway's org scope of Acme, an attacker
// signs in with a wrong password for Acme's bob, for an address nobody
// has, and for Globex's carol (no account at Acme): the three answers are
// the same. Acme's owner, reading its log, its export, GraphQL and its
// webhook subscribed to sign-ins, finds bob's failure alone, with the
// reason a wrong password and an unknown address would share; nothing of
// the two others, which are platform-wide; the platform's staff reads them
// with the precise reason.
//
// attack: failed-sign-in-enumeration
func TestAttackFailedSignInEnumeration(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.EgressAllow = "127.0.0.1/32" })
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")

	delivered := acmeSignInHook(t, m, owner.AccessToken)

	probes := []string{"bob@acme.example", "ghost@acme.example", "carol@globex.example"}
	var answers []string
	for _, email := range probes {
		code, page := passwordAttempt(t, m, email, "not-the-password", DemoAcmeOrgID)
		if code != http.StatusUnauthorized || !strings.Contains(page, "The e-mail address or password is incorrect.") {
			t.Fatalf("%s: %d", email, code)
		}
		// the same page but for the form's values and the transaction's id
		page = regexp.MustCompile(`value="[^"]*"|authRequestID=[\w-]+`).ReplaceAllString(page, "")
		answers = append(answers, strings.ReplaceAll(page, email, "EMAIL"))
	}
	for i := range answers {
		if answers[i] != answers[0] {
			t.Errorf("the page for %s differs from the page for %s", probes[i], probes[0])
		}
	}

	failures := func(evs []map[string]any) []map[string]any {
		var out []map[string]any
		for _, ev := range evs {
			if ev["kind"] == "sign_in" && ev["outcome"] == "failure" {
				out = append(out, ev)
			}
		}
		return out
	}
	only := func(view string, evs []map[string]any) {
		t.Helper()
		evs = failures(evs)
		if len(evs) != 1 || actorEmail(evs[0]) != "bob@acme.example" || evs[0]["reason"] != "invalid_credentials" {
			t.Errorf("Acme's %s: failed sign-ins %v, want bob's alone, invalid_credentials", view, evs)
		}
		for _, ev := range evs {
			if ev["reason"] == "unknown_user" || actorEmail(ev) == "ghost@acme.example" || actorEmail(ev) == "carol@globex.example" {
				t.Errorf("Acme's %s tells an address apart: %v", view, ev)
			}
		}
	}
	only("log", auditItems(t, m, owner.AccessToken, "kind=sign_in&outcome=failure"))
	only("log, searched by address", append(auditItems(t, m, owner.AccessToken, "actor=ghost"),
		append(auditItems(t, m, owner.AccessToken, "actor=carol"), auditItems(t, m, owner.AccessToken, "actor=bob")...)...))
	only("export", exportAll(t, m, owner.AccessToken, func(evs []map[string]any) bool { return len(failures(evs)) >= 1 }))
	only("GraphQL log", gqlAudit(t, m, owner.AccessToken, `, kind: "sign_in"`, "kind outcome reason actor { email }"))
	only("webhook", delivered())

	// the platform's stream has the precise reason, for every address
	staff := failures(exportAll(t, m, admin.AccessToken, func(evs []map[string]any) bool { return len(failures(evs)) >= 3 }))
	reasons := map[string]string{}
	for _, ev := range staff {
		reasons[actorEmail(ev)] = ev["reason"].(string)
		if actorEmail(ev) != "bob@acme.example" && ev["customerId"] != nil {
			t.Errorf("a failure for an address without an account at Acme is a customer's: %v", ev)
		}
	}
	if reasons["bob@acme.example"] != "invalid_credentials" || reasons["ghost@acme.example"] != "unknown_user" ||
		reasons["carol@globex.example"] != "unknown_user" {
		t.Errorf("the platform's reasons = %v", reasons)
	}
}

// One schema everywhere (D-audit-trail): bob's sign-in to the tenant web
// app, through the real sign-in page, is the same event in the REST log,
// the export, GraphQL and Acme's webhook: who (address, organization,
// role), to which application, from where (address, user agent), with the
// request id.
//
// spec: D-audit-trail
func TestAuditEventOneSchema(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.EgressAllow = "127.0.0.1/32" })
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	delivered := acmeSignInHook(t, m, owner.AccessToken)
	demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")

	bobs := func(evs []map[string]any) map[string]any {
		for _, ev := range evs {
			if ev["kind"] == "sign_in" && actorEmail(ev) == "bob@acme.example" {
				return ev
			}
		}
		return nil
	}
	rest := bobs(auditItems(t, m, owner.AccessToken, "kind=sign_in&actor=bob%40acme"))
	if rest == nil {
		t.Fatal("bob's sign-in is not in Acme's log")
	}
	actor, _ := rest["actor"].(map[string]any)
	target, _ := rest["target"].(map[string]any)
	details, _ := rest["details"].(map[string]any)
	if actor["userId"] != "2b7e4d10-0000-4000-8000-000000000003" || actor["organizationId"] != DemoAcmeOrgID || actor["role"] != "member" ||
		target["type"] != "application" || target["id"] != m.Config.InstanceClientID || target["name"] == "" ||
		rest["sourceAddress"] != "127.0.0.1" || !strings.HasPrefix(rest["userAgent"].(string), "Go-http-client") ||
		rest["requestId"] == "" || rest["customerId"] != DemoAcmeCustomerID || rest["outcome"] != "success" ||
		rest["class"] != "Authentication" || rest["classUid"] != float64(3002) || rest["activity"] != "Logon" ||
		details["method"] != "password" || rest["time"] == "" {
		t.Errorf("bob's sign-in = %v", rest)
	}
	exported := bobs(exportAll(t, m, owner.AccessToken, func(evs []map[string]any) bool { return bobs(evs) != nil }))
	hooked := bobs(delivered())
	for name, ev := range map[string]map[string]any{"export": exported, "webhook": hooked} {
		if !jsonEqual(ev, rest) {
			t.Errorf("bob's sign-in in the %s differs from the log's:\n%v\n%v", name, ev, rest)
		}
	}
	g := gqlAudit(t, m, owner.AccessToken, `, kind: "sign_in", actor: "bob@acme"`,
		"id time kind category categoryUid class classUid activity activityId typeUid outcome reason "+
			"actor { userId email organizationId role } target { type id name } sourceAddress userAgent requestId customerId "+
			"action operation resource status details { method step amr grantType grantId token until sessions }")
	gev := bobs(g)
	// GraphQL answers every field of details (empty ones as ""); the JSON leaves them out
	if gd, ok := gev["details"].(map[string]any); ok {
		for k, v := range gd {
			if v == "" || v == float64(0) {
				delete(gd, k)
			}
		}
	}
	if !jsonEqual(gev, rest) {
		t.Errorf("bob's sign-in through GraphQL differs from the log's:\n%v\n%v", gev, rest)
	}
	kinds := gqlKinds(t, m, owner.AccessToken)
	if !slices.Contains(kinds, "sign_in") || !slices.Contains(kinds, "admin.write") || !slices.Contains(kinds, "account.locked") {
		t.Errorf("auditKinds = %v", kinds)
	}
}

func gqlKinds(t *testing.T, m *Main, token string) []string {
	t.Helper()
	a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", token, map[string]any{"query": "{ auditKinds }"})
	data, _ := a.body["data"].(map[string]any)
	var out []string
	for _, k := range data["auditKinds"].([]any) {
		out = append(out, k.(string))
	}
	return out
}

// jsonEqual compares two decoded JSON values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
