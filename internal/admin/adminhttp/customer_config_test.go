package adminhttp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/webhook"
)

// configWorld is two customers and callers around them.
type configWorld struct {
	e                                         *env
	acme, other                               string
	owner, viewer, am, admin, infra, stranger string
}

func newConfigWorld(t *testing.T, opts ...admin.Option) *configWorld {
	e := newEnv(t, opts...)
	w := &configWorld{e: e, acme: e.mustCustomer(), other: e.mustCustomer()}
	w.owner, w.viewer = e.mustUser(authz.Owner, w.acme), e.mustUser(authz.Viewer, w.acme)
	w.stranger = e.mustUser(authz.Owner, w.other)
	w.am = e.mustUser(authz.AccountManager, "")
	e.mustGrant(w.am, false, w.acme)
	w.admin, w.infra = e.mustUser(authz.PlatformAdmin, ""), e.mustUser(authz.InfraOps, "")
	return w
}

func decodeInto(t *testing.T, r response, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("answer %d: %v: %s", r.Status, err, r.Body)
	}
}

// TestWebhooks: validation, the secret shown once, who may manage a
// customer's webhooks, and unknown vs out-of-scope ids.
//
// spec: R4.6-customer-side, R4.6-id-scope, R5.7-strict, D-events
func TestWebhooks(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/webhooks"
	for _, body := range []any{
		map[string]any{"url": "http://hooks.example/in"},
		map[string]any{"url": "ftp://hooks.example/in"},
		map[string]any{"url": "https://user:pw@hooks.example/in"},
		map[string]any{"url": "hooks.example/in"},
		map[string]any{"url": "https://hooks.example/in", "events": []string{}},
		map[string]any{"url": "https://hooks.example/in", "events": []string{"tenant.created"}},
		map[string]any{"url": "https://hooks.example/in", "secret": "mine"},
	} {
		if r := w.e.do(w.owner, "POST", path, body); r.Status != 400 {
			t.Errorf("POST %v = %d, want 400: %s", body, r.Status, r.Body)
		}
	}
	var list admin.Page[admin.WebhookView]
	decodeInto(t, w.e.do(w.owner, "GET", path, nil), &list)
	if len(list.Items) != 0 {
		t.Fatalf("refused creates left webhooks: %+v", list.Items)
	}

	r := w.e.do(w.am, "POST", path, map[string]any{"url": "https://hooks.example/in", "events": []string{"manage_billing", "manage_tenant"}})
	if r.Status != 201 {
		t.Fatalf("account manager in scope: %d %s", r.Status, r.Body)
	}
	var created struct {
		admin.WebhookView
		Secret string `json:"secret"`
	}
	decodeInto(t, r, &created)
	if !strings.HasPrefix(created.Secret, "whsec_") || created.CustomerID != w.acme || !created.Active {
		t.Fatalf("created = %s", r.Body)
	}
	get := w.e.do(w.owner, "GET", "/webhooks/"+created.ID, nil)
	if get.Status != 200 || strings.Contains(string(get.Body), created.Secret) || strings.Contains(string(get.Body), "secret\"") {
		t.Fatalf("GET shows the secret: %s", get.Body)
	}
	rot := w.e.do(w.owner, "POST", "/webhooks/"+created.ID+"/rotate-secret", nil)
	var rotated struct{ Secret string }
	decodeInto(t, rot, &rotated)
	if rot.Status != 200 || rotated.Secret == "" || rotated.Secret == created.Secret {
		t.Fatalf("rotate: %d %s", rot.Status, rot.Body)
	}
	if r := w.e.do(w.owner, "PATCH", "/webhooks/"+created.ID, map[string]any{"url": "http://evil.example"}); r.Status != 400 {
		t.Errorf("PATCH to plain http: %d", r.Status)
	}
	upd := w.e.do(w.owner, "PATCH", "/webhooks/"+created.ID, map[string]any{"active": false, "description": "paused"})
	var v admin.WebhookView
	decodeInto(t, upd, &v)
	if upd.Status != 200 || v.Active || v.Description != "paused" || len(v.Events) != 2 {
		t.Fatalf("PATCH: %d %s", upd.Status, upd.Body)
	}

	missing := "00000000-0000-4000-8000-00000000dead"
	am2 := w.e.mustUser(authz.AccountManager, "")
	w.e.mustGrant(am2, false, w.other)
	for _, tc := range []struct {
		caller, method, path string
		want                 int
	}{
		{w.viewer, "GET", path, 403},
		{w.infra, "GET", path, 403},
		{w.stranger, "GET", path, 404},
		{w.stranger, "GET", "/webhooks/" + created.ID, 404},
		{w.stranger, "GET", "/webhooks/" + missing, 404},
		{am2, "GET", "/webhooks/" + created.ID, 403},
		{am2, "DELETE", "/webhooks/" + created.ID, 403},
		{am2, "GET", "/webhooks/" + missing, 403},
		{w.admin, "GET", "/webhooks/" + missing, 404},
		{w.admin, "GET", "/webhooks/" + created.ID + "/deliveries", 200},
		{w.owner, "DELETE", "/webhooks/" + created.ID, 204},
		{w.owner, "GET", "/webhooks/" + created.ID, 404},
	} {
		if r := w.e.do(tc.caller, tc.method, tc.path, nil); r.Status != tc.want {
			t.Errorf("%s %s: %d, want %d: %s", tc.method, tc.path, r.Status, tc.want, r.Body)
		}
	}
}

// loopback is the all-in-one role's egress policy: test receivers listen
// on 127.0.0.1.
var loopback = egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}

// TestAttackWebhookURLInternal: a webhook URL the egress policy refuses (loopback,
// cloud metadata, private networks, their IPv4-mapped spellings) is
// refused when it is set, on create and on update; the same localhost URL
// is accepted where the policy allows loopback (the all-in-one role).
//
// attack: webhook-url-internal
func TestAttackWebhookURLInternal(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/webhooks"
	for _, u := range []string{"http://localhost:9000/hook", "http://127.0.0.1:8081/api/v1/customers", "https://169.254.169.254/latest/meta-data/",
		"https://10.0.0.7/in", "https://[::ffff:127.0.0.1]/in", "https://[fd00::1]/in", "https://[64:ff9b::a9fe:a9fe]/in"} {
		if r := w.e.do(w.owner, "POST", path, map[string]any{"url": u}); r.Status != 400 || !strings.Contains(string(r.Body), "egress policy") {
			t.Errorf("POST %s = %d, want 400 from the egress policy: %s", u, r.Status, r.Body)
		}
	}
	r := w.e.do(w.owner, "POST", path, map[string]any{"url": "https://hooks.example/in"})
	var created admin.WebhookView
	decodeInto(t, r, &created)
	if r.Status != 201 {
		t.Fatalf("public name: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.owner, "PATCH", "/webhooks/"+created.ID, map[string]any{"url": "https://169.254.169.254/"}); r.Status != 400 {
		t.Errorf("PATCH to the metadata address: %d %s", r.Status, r.Body)
	}
	var got admin.WebhookView
	decodeInto(t, w.e.do(w.owner, "GET", "/webhooks/"+created.ID, nil), &got)
	if got.URL != "https://hooks.example/in" {
		t.Errorf("a refused PATCH changed the URL to %s", got.URL)
	}

	dev := newConfigWorld(t, admin.WithEgress(loopback))
	if r := dev.e.do(dev.owner, "POST", "/customers/"+dev.acme+"/webhooks", map[string]any{"url": "http://localhost:9000/hook"}); r.Status != 201 {
		t.Errorf("http on localhost with loopback allowed: %d %s", r.Status, r.Body)
	}
}

// TestWebhookDeliveredEndToEnd: a webhook created through the API receives
// its customer's events, signed with the secret the API answered once.
//
// spec: D-events
func TestWebhookDeliveredEndToEnd(t *testing.T) {
	t.Parallel()
	sl, err := secrets.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	w := newConfigWorld(t, admin.WithSealer(sl), admin.WithEgress(loopback))
	var mu sync.Mutex
	var got []*http.Request
	var bodies [][]byte
	rcv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, b)
		mu.Unlock()
	}))
	defer rcv.Close()

	r := w.e.do(w.owner, "POST", "/customers/"+w.acme+"/webhooks", map[string]any{"url": rcv.URL, "events": []string{"manage_billing"}})
	var created struct {
		ID     string
		Secret string
	}
	decodeInto(t, r, &created)
	// an admin write on the customer, and one on another customer
	if r := w.e.do(w.owner, "PUT", "/customers/"+w.acme+"/billing-setup",
		map[string]any{"billingEmail": "ap@acme.example", "currency": "EUR", "paymentMethod": "invoice"}); r.Status != 200 {
		t.Fatalf("billing setup: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.stranger, "PUT", "/customers/"+w.other+"/billing-setup",
		map[string]any{"billingEmail": "ap@other.example", "currency": "EUR", "paymentMethod": "invoice"}); r.Status != 200 {
		t.Fatalf("billing setup: %d %s", r.Status, r.Body)
	}
	d := &webhook.Dispatcher{Store: w.e.st, Sealer: sl, Egress: loopback}
	st, err := d.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Delivered != 1 {
		t.Fatalf("run = %+v; want one delivery (the webhook's creation is manage_customer_config, not subscribed)", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("receiver got %d requests", len(got))
	}
	if err := webhook.Verify(created.Secret, got[0].Header.Get(webhook.SignatureHeader), bodies[0], time.Now(), time.Minute); err != nil {
		t.Fatalf("signature with the secret the API answered: %v", err)
	}
	var ev webhook.Event
	if err := json.Unmarshal(bodies[0], &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Kind != "admin.write" || ev.Action != "manage_billing" || ev.CustomerID == nil || *ev.CustomerID != w.acme ||
		ev.Operation != admin.OpBillingSetupPut.Name || ev.Actor.UserID != w.owner || ev.Actor.Role != "owner" ||
		ev.Resource != "customers/"+w.acme+"/billing-setup" || ev.Target != (audit.Target{Type: "customer", ID: w.acme}) {
		t.Fatalf("event = %+v", ev)
	}
	if h := got[0].Header.Get(webhook.EventHeader); h != "admin.write" {
		t.Fatalf("event header %q, want the kind admin.write", h)
	}
	var deliveries admin.Page[map[string]any]
	decodeInto(t, w.e.do(w.owner, "GET", "/webhooks/"+created.ID+"/deliveries", nil), &deliveries)
	if len(deliveries.Items) != 1 || deliveries.Items[0]["status"] != "delivered" {
		t.Fatalf("deliveries = %+v", deliveries.Items)
	}
}

// TestIdentityProviders: the client secret is sealed and never answered;
// scopes need openid; names are unique per customer.
//
// spec: R4.6-customer-side
func TestIdentityProviders(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/identity-providers"
	good := map[string]any{"name": "Okta", "issuer": "https://acme.okta.example", "clientId": "0oa1", "clientSecret": "very-secret-value"}
	for name, patch := range map[string]map[string]any{
		"issuer":   {"issuer": "http://acme.okta.example"},
		"scopes":   {"scopes": []string{"profile"}},
		"badscope": {"scopes": []string{"openid", "a b"}},
		"nosecret": {"clientSecret": ""},
		"noname":   {"name": ""},
		"unknown":  {"tenant": "x"},
	} {
		body := map[string]any{}
		for k, v := range good {
			body[k] = v
		}
		for k, v := range patch {
			body[k] = v
		}
		if r := w.e.do(w.owner, "POST", path, body); r.Status != 400 {
			t.Errorf("%s: %d, want 400: %s", name, r.Status, r.Body)
		}
	}
	r := w.e.do(w.owner, "POST", path, good)
	if r.Status != 201 || strings.Contains(string(r.Body), "very-secret-value") {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var idp admin.IdentityProvider
	decodeInto(t, r, &idp)
	if !idp.ClientSecretSet || !idp.Enabled || strings.Join(idp.Scopes, " ") != "openid profile email" {
		t.Fatalf("created = %+v", idp)
	}
	if r := w.e.do(w.owner, "POST", path, good); r.Status != 409 {
		t.Errorf("same name twice: %d", r.Status)
	}
	row, err := w.e.st.IDPConfig(context.Background(), idp.ID)
	if err != nil || strings.Contains(string(row.ClientSecretSealed), "very-secret-value") {
		t.Fatalf("stored secret is not sealed: %v", err)
	}
	upd := w.e.do(w.am, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"enabled": false, "clientSecret": "rotated"})
	if upd.Status != 200 || strings.Contains(string(upd.Body), "rotated") {
		t.Fatalf("patch: %d %s", upd.Status, upd.Body)
	}
	for _, tc := range []struct {
		caller, method string
		want           int
	}{{w.viewer, "GET", 403}, {w.infra, "GET", 403}, {w.stranger, "GET", 404}, {w.owner, "DELETE", 204}, {w.owner, "GET", 404}} {
		if r := w.e.do(tc.caller, tc.method, "/identity-providers/"+idp.ID, nil); r.Status != tc.want {
			t.Errorf("%s: %d, want %d", tc.method, r.Status, tc.want)
		}
	}
}

// TestServiceAccounts: the client secret is shown once, kept as SHA-256,
// and replaced by a rotation.
//
// spec: R4.6-customer-side
func TestServiceAccounts(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/service-accounts"
	if r := w.e.do(w.owner, "POST", path, map[string]any{"name": "  "}); r.Status != 400 {
		t.Errorf("blank name: %d", r.Status)
	}
	if r := w.e.do(w.owner, "POST", path, map[string]any{"name": "ci", "role": "owner"}); r.Status != 400 {
		t.Errorf("a service account as owner: %d", r.Status)
	}
	r := w.e.do(w.owner, "POST", path, map[string]any{"name": "ci", "description": "deploys", "role": "viewer"})
	var created struct {
		ID, ClientID, ClientSecret string
	}
	decodeInto(t, r, &created)
	if r.Status != 201 || !strings.HasPrefix(created.ClientSecret, "sas_") || created.ClientID == "" {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.owner, "POST", path, map[string]any{"name": "ci", "role": "viewer"}); r.Status != 409 {
		t.Errorf("same name twice: %d", r.Status)
	}
	row, _ := w.e.st.ServiceAccount(context.Background(), created.ID)
	if row.SecretHash != platform.HashSecret(created.ClientSecret) {
		t.Fatal("the stored hash is not the secret's SHA-256")
	}
	if app, err := w.e.st.ApplicationByClientID(context.Background(), created.ClientID); err != nil || app.SecretHash != row.SecretHash ||
		app.UserID != row.UserID || app.Kind != platform.AppService {
		t.Fatalf("the service account's client at the identity provider: %+v, %v", app, err)
	}
	get := w.e.do(w.owner, "GET", "/service-accounts/"+created.ID, nil)
	if strings.Contains(string(get.Body), created.ClientSecret) || strings.Contains(string(get.Body), row.SecretHash) {
		t.Fatalf("GET shows the secret or its hash: %s", get.Body)
	}
	rot := w.e.do(w.am, "POST", "/service-accounts/"+created.ID+"/rotate-secret", nil)
	var rotated struct{ ClientSecret string }
	decodeInto(t, rot, &rotated)
	row2, _ := w.e.st.ServiceAccount(context.Background(), created.ID)
	if rot.Status != 200 || rotated.ClientSecret == created.ClientSecret || row2.SecretHash == row.SecretHash {
		t.Fatalf("rotate: %d %s", rot.Status, rot.Body)
	}
	if r := w.e.do(w.viewer, "POST", "/service-accounts/"+created.ID+"/rotate-secret", nil); r.Status != 403 {
		t.Errorf("viewer rotates: %d", r.Status)
	}
}

// TestServicesCheckAgain: called directly, as GraphQL resolvers do, the
// services refuse what the routes refuse: no transport can skip the
// decision (D-access-path).
//
// spec: R4.6-id-scope, R5.7-strict, R5.7-redact
func TestServicesCheckAgain(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	ctx := context.Background()
	svc := w.e.svc
	am := mustCaller(t, w.e, w.am)
	viewer := mustCaller(t, w.e, w.viewer)
	stranger := mustCaller(t, w.e, w.stranger)
	if _, err := svc.CreateWebhook(ctx, am, w.other, admin.WebhookInput{URL: "https://x.example"}); platform.ErrorCode(err) != platform.EFORBIDDEN {
		t.Errorf("account manager on another customer: %v", err)
	}
	if _, err := svc.CreateWebhook(ctx, stranger, w.acme, admin.WebhookInput{URL: "https://x.example"}); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Errorf("another customer's owner: %v", err)
	}
	if _, err := svc.ListWebhooks(ctx, viewer, w.acme); platform.ErrorCode(err) != platform.EFORBIDDEN {
		t.Errorf("viewer lists webhooks: %v", err)
	}
	if _, err := svc.CreatePlan(ctx, am, admin.PlanInput{Code: "x", Name: "x", Currency: "EUR"}); platform.ErrorCode(err) != platform.EFORBIDDEN {
		t.Errorf("account manager creates a plan: %v", err)
	}
	_, key := w.e.mustMeter()
	w.e.mustUsage(w.acme, key, "2026-03", 3, 300)
	w.e.mustUsage(w.other, key, "2026-03", 4, 400)
	page, err := svc.ListUsage(ctx, viewer, admin.UsageFilter{})
	if err != nil || len(page.Items) != 1 || page.Items[0].CustomerID != w.acme || page.Items[0].BilledAmount != nil {
		t.Fatalf("viewer's usage = %+v, %v", page, err)
	}
	page, err = svc.ListUsage(ctx, am, admin.UsageFilter{})
	if err != nil || len(page.Items) != 1 || page.Items[0].BilledAmount == nil || *page.Items[0].BilledAmount != 3 {
		t.Fatalf("account manager's usage = %+v, %v", page, err)
	}
}

// TestSSOTakesEffect: an identity provider configured for a customer is the
// identity provider's external provider of the customer's organization
// (same id, secret sealed for it) while enabled; SSO settings are the
// organization's login policy; an SSO-only customer keeps at least one
// provider.
//
// spec: R4.6-customer-side
func TestSSOTakesEffect(t *testing.T) {
	t.Parallel()
	sl, err := secrets.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	w := newConfigWorld(t, admin.WithSealer(sl))
	ctx := context.Background()
	cust, _ := w.e.st.Customer(ctx, w.acme)
	sso := "/customers/" + w.acme + "/sso"
	var got admin.SSOSettings
	decodeInto(t, w.e.do(w.owner, "GET", sso, nil), &got)
	if got != (admin.SSOSettings{PasswordAllowed: true}) {
		t.Fatalf("default settings = %+v", got)
	}
	if r := w.e.do(w.owner, "PUT", sso, map[string]any{"passwordAllowed": false, "ssoAllowed": true}); r.Status != 400 {
		t.Fatalf("SSO only without a provider: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.owner, "PUT", sso, map[string]any{"passwordAllowed": false}); r.Status != 400 {
		t.Fatalf("no sign-in method: %d %s", r.Status, r.Body)
	}

	r := w.e.do(w.owner, "POST", "/customers/"+w.acme+"/identity-providers",
		map[string]any{"name": "Okta", "issuer": "https://acme.okta.example", "clientId": "0oa1", "clientSecret": "s3cret"})
	var idp admin.IdentityProvider
	decodeInto(t, r, &idp)
	xs, err := w.e.st.ExternalIDPs(ctx, cust.OrgID)
	if err != nil || len(xs) != 1 || xs[0].ID != idp.ID || xs[0].Issuer != "https://acme.okta.example" || xs[0].ClientID != "0oa1" {
		t.Fatalf("the identity provider's providers of the organization = %+v, %v", xs, err)
	}
	if secret, err := sl.Open(xs[0].SecretSealed, secrets.LabelIDPSecret(idp.ID)); err != nil || string(secret) != "s3cret" {
		t.Fatalf("the identity provider cannot open the secret: %q, %v", secret, err)
	}
	r = w.e.do(w.am, "PUT", sso, map[string]any{"passwordAllowed": false, "ssoAllowed": true, "ssoCreateUsers": true})
	decodeInto(t, r, &got)
	if r.Status != 200 || got != (admin.SSOSettings{SSOAllowed: true, SSOCreateUsers: true, IdentityProviders: 1}) {
		t.Fatalf("SSO only: %d %s", r.Status, r.Body)
	}
	if p, _ := w.e.st.LoginPolicy(ctx, cust.OrgID); p.PasswordAllowed || !p.SSOAllowed {
		t.Fatalf("login policy = %+v", p)
	}
	// the last provider of an SSO-only customer stays
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"enabled": false}); r.Status != 409 {
		t.Errorf("disable the last provider: %d %s", r.Status, r.Body)
	}
	if r := w.e.do(w.owner, "DELETE", "/identity-providers/"+idp.ID, nil); r.Status != 409 {
		t.Errorf("delete the last provider: %d %s", r.Status, r.Body)
	}
	// an update reaches sign-in
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"clientId": "0oa2", "clientSecret": "new"}); r.Status != 200 {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	x, _ := w.e.st.ExternalIDP(ctx, idp.ID)
	if secret, err := sl.Open(x.SecretSealed, secrets.LabelIDPSecret(idp.ID)); x.ClientID != "0oa2" || err != nil || string(secret) != "new" {
		t.Fatalf("after patch: %+v %q %v", x, secret, err)
	}
	// with passwords back, it can go: disabled, it leaves sign-in; enabled, it returns
	if r := w.e.do(w.owner, "PUT", sso, map[string]any{"passwordAllowed": true}); r.Status != 200 {
		t.Fatalf("passwords back: %d", r.Status)
	}
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"enabled": false}); r.Status != 200 {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	if xs, _ := w.e.st.ExternalIDPs(ctx, cust.OrgID); len(xs) != 0 {
		t.Fatalf("a disabled provider is still used for sign-in: %+v", xs)
	}
	if r := w.e.do(w.owner, "PATCH", "/identity-providers/"+idp.ID, map[string]any{"enabled": true}); r.Status != 200 {
		t.Fatalf("enable: %d %s", r.Status, r.Body)
	}
	if xs, _ := w.e.st.ExternalIDPs(ctx, cust.OrgID); len(xs) != 1 {
		t.Fatalf("re-enabled provider missing: %+v", xs)
	}
	if r := w.e.do(w.owner, "DELETE", "/identity-providers/"+idp.ID, nil); r.Status != 204 {
		t.Fatalf("delete: %d", r.Status)
	}
	if xs, _ := w.e.st.ExternalIDPs(ctx, cust.OrgID); len(xs) != 0 {
		t.Fatalf("a deleted provider is still used for sign-in: %+v", xs)
	}
	for _, c := range []string{w.viewer, w.infra} {
		if r := w.e.do(c, "GET", sso, nil); r.Status != 403 {
			t.Errorf("GET sso: %d, want 403", r.Status)
		}
	}
	if r := w.e.do(w.stranger, "PUT", sso, map[string]any{"ssoAllowed": true}); r.Status != 404 {
		t.Errorf("another customer's owner: %d, want 404", r.Status)
	}
}

// A customer's sign-in settings carry the organization's passkey policy:
// allowed, and required (which needs allowed).
func TestSSOPasskeyPolicy(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	ctx := context.Background()
	cust, _ := w.e.st.Customer(ctx, w.acme)
	sso := "/customers/" + w.acme + "/sso"
	if r := w.e.do(w.owner, "PUT", sso, map[string]any{"passkeyRequired": true}); r.Status != 400 {
		t.Fatalf("required without allowed: %d %s", r.Status, r.Body)
	}
	var got admin.SSOSettings
	r := w.e.do(w.owner, "PUT", sso, map[string]any{"passkeyAllowed": true, "passkeyRequired": true})
	decodeInto(t, r, &got)
	if r.Status != 200 || !got.PasskeyAllowed || !got.PasskeyRequired || !got.PasswordAllowed {
		t.Fatalf("passkeys required: %d %s", r.Status, r.Body)
	}
	if p, _ := w.e.st.LoginPolicy(ctx, cust.OrgID); !p.PasskeyAllowed || !p.PasskeyRequired {
		t.Fatalf("login policy = %+v", p)
	}
}
