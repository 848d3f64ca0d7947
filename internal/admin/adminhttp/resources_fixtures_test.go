package adminhttp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Fixtures of the customer-side configuration, billing and infrastructure
// routes for the capability-matrix test, and store helpers their own HTTP
// tests share.

func (e *env) mustIDPConfig(customerID string) string {
	e.t.Helper()
	now := time.Now()
	id := e.id("idp")
	ctx := context.Background()
	c := &store.IDPConfig{ID: id, CustomerID: customerID, Name: "IdP " + id, Issuer: "https://sso.example", ClientID: "cid",
		ClientSecretSealed: []byte{1}, Scopes: []string{"openid"}, Enabled: true, CreatedAt: now, UpdatedAt: now}
	cust, err := e.st.Customer(ctx, customerID)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.CreateIDPConfig(ctx, c); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.CreateExternalIDP(ctx, &platform.ExternalIDP{ID: c.ID, OrgID: cust.OrgID, Name: c.Name, Issuer: c.Issuer,
		ClientID: c.ClientID, SecretSealed: c.ClientSecretSealed, Scopes: c.Scopes, CreatedAt: c.CreatedAt}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustWebhook(customerID, url string) string {
	e.t.Helper()
	now := time.Now()
	id := e.id("wh")
	if err := e.st.CreateWebhook(context.Background(), &store.Webhook{ID: id, CustomerID: customerID, URL: url,
		Events: []string{"*"}, SecretSealed: []byte{1}, Active: true, CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustSCIMToken(customerID string) string {
	e.t.Helper()
	id := e.id("scim")
	if err := e.st.CreateSCIMToken(context.Background(), &store.SCIMToken{ID: id, CustomerID: customerID, Name: "Directory " + id,
		TokenHash: "hash-" + id, CreatedBy: "seed", CreatedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustRegistrationToken(customerID string) string {
	e.t.Helper()
	id := e.id("iat")
	now := time.Now()
	if err := e.st.CreateRegistrationToken(context.Background(), &store.RegistrationToken{ID: id, CustomerID: customerID,
		Name: "Clients " + id, TokenHash: "hash-" + id, AllowPublic: true, RedirectHosts: []string{"app.example"}, MaxUses: 1,
		CreatedBy: "seed", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustServiceAccount(customerID string) string {
	e.t.Helper()
	now := time.Now()
	id := e.id("sa")
	cust, err := e.st.Customer(context.Background(), customerID)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.CreateServiceAccount(context.Background(), &store.ServiceAccount{ID: id, CustomerID: customerID,
		Name: "SA " + id, ClientID: "client-" + id, SecretHash: "x", UserID: "u-" + id, Role: "viewer", CreatedAt: now,
		SecretRotatedAt: now}, cust.OrgID, &platform.Application{AppID: "app-" + id, ClientID: "client-" + id, Name: "SA",
		Kind: platform.AppService, SecretHash: "x", UserID: "u-" + id, CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustInvoice(customerID string) string {
	e.t.Helper()
	now := time.Now()
	id := e.id("inv")
	if err := e.st.CreateInvoice(context.Background(), &store.Invoice{ID: id, CustomerID: customerID, Number: "N-" + id,
		Period: "2026-01", Currency: "EUR", TotalCents: 12345, Status: "open", IssuedAt: now, DueAt: now.Add(720 * time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustBillingSetup(customerID string) {
	e.t.Helper()
	if err := e.st.PutBillingSetup(context.Background(), &store.BillingSetup{CustomerID: customerID, BillingEmail: "ap@example.com",
		Currency: "EUR", PaymentMethod: "invoice", UpdatedAt: time.Now(), UpdatedBy: "seed"}); err != nil {
		e.t.Fatal(err)
	}
}

// mustMetadataClient records a client ID metadata document's client of
// the customer, as the identity provider does at its first use, and returns
// its client id.
func (e *env) mustMetadataClient(customerID string) string {
	e.t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	id := "https://" + e.id("d") + ".example.com/client.json"
	if _, err := e.st.SaveMetadataClient(context.Background(), &platform.Application{AppID: e.id("app"), ClientID: id, Name: "Doc client",
		Kind: platform.AppPublic, AuthMethod: platform.AuthNone, RedirectURIs: []string{"https://app.example/cb"}, CreatedAt: now,
		MetadataCustomerID: customerID, MetadataFetchedAt: now, MetadataExpiresAt: now.Add(time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// mustMeter creates a meter and returns its id and key.
func (e *env) mustMeter() (id, key string) {
	e.t.Helper()
	now := time.Now()
	id = e.id("meter")
	key = "m_" + strings.ReplaceAll(id, "-", "_")
	if err := e.st.CreateMeter(context.Background(), &store.Meter{ID: id, Key: key, Name: "Meter " + id, Unit: "call",
		Aggregation: "sum", CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id, key
}

func (e *env) mustUsage(customerID, meterKey, period string, units float64, billedCents int64) {
	e.t.Helper()
	if err := e.st.PutUsageRow(context.Background(), &store.UsageRow{ID: e.id("usage"), CustomerID: customerID, MeterKey: meterKey,
		Period: period, Units: units, BilledAmountCents: billedCents, Currency: "EUR"}); err != nil {
		e.t.Fatal(err)
	}
}

// mustPlan creates an active plan of 1.00 EUR a month that is not offered
// to customers (not public).
func (e *env) mustPlan() string {
	e.t.Helper()
	return e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 100, Active: true})
}

// mustPlanWith creates a plan with p's currency, fee, active and public.
func (e *env) mustPlanWith(p store.Plan) string {
	e.t.Helper()
	now := time.Now()
	p.ID = e.id("plan")
	p.Code, p.Name, p.CreatedAt, p.UpdatedAt = "p_"+strings.ReplaceAll(p.ID, "-", "_"), "Plan "+p.ID, now, now
	if err := e.st.CreatePlan(context.Background(), &p); err != nil {
		e.t.Fatal(err)
	}
	return p.ID
}

func (e *env) mustRelease(status string) string {
	e.t.Helper()
	id := e.id("rel")
	r := &store.Release{ID: id, Version: "1.0." + strings.TrimPrefix(id, "rel-"), Channel: "stable", Status: status,
		CreatedBy: "seed", CreatedAt: time.Now()}
	if status != "draft" {
		at := time.Now()
		r.PublishedAt = &at
	}
	if err := e.st.CreateRelease(context.Background(), r); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustEnvVar() string {
	e.t.Helper()
	id := e.id("env")
	if err := e.st.CreateEnvVar(context.Background(), &store.EnvVar{ID: id, Name: "VAR_" + strings.ReplaceAll(strings.ToUpper(id), "-", "_"),
		Value: "v", UpdatedAt: time.Now(), UpdatedBy: "seed"}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustUserAttribute() string {
	e.t.Helper()
	now := time.Now()
	id := e.id("attr")
	if err := e.st.CreateUserAttribute(context.Background(), &store.UserAttribute{ID: id, Key: "a_" + strings.ReplaceAll(id, "-", "_"),
		Label: "Attr", Type: "string", Options: []string{}, CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) mustDiscrepancy(customerID, status string) string {
	e.t.Helper()
	id := e.id("disc")
	d := &store.Discrepancy{ID: id, Kind: "billing_mismatch", CustomerID: customerID, Summary: "Totals differ", Status: status,
		DetectedAt: time.Now()}
	if status == store.DiscrepancyResolved {
		at := time.Now()
		d.ResolvedAt, d.ResolvedBy, d.Resolution = &at, "seed", "fixed"
	}
	if err := e.st.CreateDiscrepancy(context.Background(), d); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func init() {
	// Customer-side routes under /customers/{id}/…: the body their method and path need.
	registerFixture("customer_resource", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.CustomerID)}
		e := w.env
		switch {
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/identity-providers"):
			r.Body = map[string]any{"name": "IdP " + e.id("n"), "issuer": "https://login.example", "clientId": "abc", "clientSecret": "s3cret"}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/webhooks"):
			r.Body = map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/service-accounts"):
			r.Body = map[string]any{"name": "SA " + e.id("n"), "role": "viewer"}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/domains"):
			r.Body = map[string]any{"domain": e.id("d") + ".example.com"}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/scim-tokens"):
			r.Body = map[string]any{"name": "Directory " + e.id("n")}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/registration-tokens"):
			r.Body = map[string]any{"name": "Clients " + e.id("n"), "kinds": []string{"public"}, "redirectHosts": []string{"app.example"},
				"maxUses": 5, "expiresAt": time.Now().Add(24 * time.Hour)}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/credits"):
			e.mustBillingSetup(w.CustomerID) // a customer role's credit is a purchase, charged on the invoice of its setup
			r.Body = map[string]any{"amount": 25.5, "currency": "EUR", "reason": "goodwill"}
		case rt.Method == "PUT" && strings.HasSuffix(rt.Pattern, "/client-metadata"):
			r.Body = map[string]any{"enabled": true}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/metadata-clients/block"):
			r.Body = map[string]any{"clientId": e.mustMetadataClient(w.CustomerID), "blocked": true}
		case rt.Method == "PUT" && strings.HasSuffix(rt.Pattern, "/security-policy"):
			r.Body = map[string]any{"sessionMaxSeconds": 3600, "passwordMinLength": 14}
		case rt.Method == "PUT" && strings.HasSuffix(rt.Pattern, "/sso"):
			r.Body = map[string]any{"ssoAllowed": true, "ssoCreateUsers": true}
		case rt.Method == "PUT" && strings.HasSuffix(rt.Pattern, "/billing-setup"):
			r.Body = map[string]any{"billingEmail": "ap@example.com", "currency": "EUR", "paymentMethod": "invoice"}
		case rt.Method == "GET" && (strings.HasSuffix(rt.Pattern, "/billing-setup") || strings.HasSuffix(rt.Pattern, "/invoices/next")):
			e.mustBillingSetup(w.CustomerID)
		}
		return r
	})
	registerFixture("identity_provider", func(t *testing.T, w *World, rt routeRow) Request {
		body := map[string]any{"enabled": false}
		if strings.HasSuffix(rt.Pattern, "/trust") {
			body = map[string]any{"linkTrusted": true}
		}
		return Request{Params: params("id", w.env.mustIDPConfig(w.CustomerID)), Body: bodyFor(rt, body)}
	})
	registerFixture("webhook", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustWebhook(w.CustomerID, "https://hooks.example/in"))}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"active": false}
		}
		return r
	})
	registerFixture("service_account", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustServiceAccount(w.CustomerID))}
		switch {
		case strings.HasSuffix(rt.Pattern, "/keys"):
			r.Body = map[string]any{"jwks": testJWKS(t)}
		case strings.HasSuffix(rt.Pattern, "/role"):
			r.Body = map[string]any{"role": "member"}
		}
		return r
	})
	// A recorded domain (D-verified-domains): verifying it again needs no
	// DNS, and it is audited like any proof.
	registerFixture("domain", func(t *testing.T, w *World, rt routeRow) Request {
		domain := w.env.id("d") + ".example.org"
		if err := w.env.st.AddCustomerDomain(context.Background(), domain, w.CustomerID); err != nil {
			t.Fatal(err)
		}
		return Request{Params: params("id", w.CustomerID, "domainId", "recorded:"+w.CustomerID+":"+domain)}
	})
	registerFixture("scim_token", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustSCIMToken(w.CustomerID))}
	})
	registerFixture("registration_token", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustRegistrationToken(w.CustomerID))}
	})
	registerFixture("internal_scim_token_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"name": "Internal directory " + w.env.id("n")}}
	})
	registerFixture("internal_scim_token", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustSCIMToken(""))}
	})
	registerFixture("internal_service_account_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"name": w.env.id("robot"), "role": "reader"}}
	})
	registerFixture("invoice", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustInvoice(w.CustomerID))}
	})

	// Infrastructure routes: records of no customer.
	registerFixture("plan_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"code": "p_" + strings.ReplaceAll(w.env.id("n"), "-", "_"), "name": "Pro", "currency": "EUR", "monthlyFee": 49.9}}
	})
	registerFixture("plan", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustPlan())}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"monthlyFee": 59}
		}
		return r
	})
	registerFixture("meter_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"key": "m_" + strings.ReplaceAll(w.env.id("n"), "-", "_"), "name": "Storage", "unit": "GB", "aggregation": "max"}}
	})
	registerFixture("meter", func(t *testing.T, w *World, rt routeRow) Request {
		id, _ := w.env.mustMeter()
		r := Request{Params: params("id", id)}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"name": "Renamed"}
		}
		return r
	})
	registerFixture("release_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"version": "2.0." + strings.TrimPrefix(w.env.id("n"), "n-"), "notes": "n"}}
	})
	registerFixture("release", func(t *testing.T, w *World, rt routeRow) Request {
		status := "draft"
		if strings.HasSuffix(rt.Pattern, "/withdraw") {
			status = "published"
		}
		r := Request{Params: params("id", w.env.mustRelease(status))}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"notes": "changed"}
		}
		return r
	})
	registerFixture("env_var_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"name": "N_" + strings.ReplaceAll(strings.ToUpper(w.env.id("n")), "-", "_"), "value": "x", "secret": true}}
	})
	registerFixture("env_var", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustEnvVar())}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"value": "y"}
		}
		return r
	})
	registerFixture("system_worker", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", "webhook-delivery")}
	})
	registerFixture("user_attribute_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"key": "a_" + strings.ReplaceAll(w.env.id("n"), "-", "_"), "label": "Cost center", "type": "string"}}
	})
	registerFixture("user_attribute", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustUserAttribute())}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"required": true}
		}
		return r
	})
	registerFixture("discrepancy_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"kind": "instance_drift", "summary": "Version differs"}}
	})
	registerFixture("discrepancy", func(t *testing.T, w *World, rt routeRow) Request {
		status := store.DiscrepancyOpen
		if strings.HasSuffix(rt.Pattern, "/reopen") {
			status = store.DiscrepancyResolved
		}
		r := Request{Params: params("id", w.env.mustDiscrepancy("", status))}
		if strings.HasSuffix(rt.Pattern, "/resolve") {
			r.Body = map[string]any{"resolution": "corrected by hand"}
		}
		return r
	})
}

// testJWKS is a JWK Set of one fresh public signing key.
func testJWKS(t *testing.T) map[string]any {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(jose.JSONWebKey{Key: k.Public(), KeyID: "k1", Use: "sig", Algorithm: "ES256"})
	if err != nil {
		t.Fatal(err)
	}
	var key map[string]any
	_ = json.Unmarshal(b, &key)
	return map[string]any{"keys": []any{key}}
}
