package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testAdminResources covers the tables of migration 0010: customer-side
// configuration, billing, the catalog, and the internal-infrastructure
// records, with scope filtering of billing listings in SQL.
func testAdminResources(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "cust-a", "cust-b")
	t.Run("IDPConfigs", func(t *testing.T) { testIDPConfigs(t, st) })
	t.Run("Webhooks", func(t *testing.T) { testWebhooks(t, st) })
	t.Run("ServiceAccounts", func(t *testing.T) { testServiceAccounts(t, st) })
	t.Run("Billing", func(t *testing.T) { testBilling(t, st) })
	t.Run("Infra", func(t *testing.T) { testInfraRecords(t, st) })
}

func testIDPConfigs(t *testing.T, st *store.Store) {
	c := &store.IDPConfig{ID: "idp-1", CustomerID: "cust-a", Name: "Okta", Issuer: "https://okta.example", ClientID: "cid",
		ClientSecretSealed: []byte{1, 2, 3}, Scopes: []string{"openid", "email"}, Enabled: true, CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreateIDPConfig(ctx, c); err != nil {
		t.Fatal(err)
	}
	dup := *c
	dup.ID = "idp-2"
	wantCode(t, st.CreateIDPConfig(ctx, &dup), platform.ECONFLICT)
	got, err := st.IDPConfig(ctx, "idp-1")
	wantSame(t, "identity provider", c, got, err)
	upd, err := st.UpdateIDPConfig(ctx, "idp-1", func(c *store.IDPConfig) error {
		c.Enabled, c.UpdatedAt = false, ts.Add(time.Hour)
		return nil
	})
	if err != nil || upd.Enabled {
		t.Fatalf("update = %+v, %v", upd, err)
	}
	boom := platform.Errorf(platform.EINVALID, "no")
	_, err = st.UpdateIDPConfig(ctx, "idp-1", func(c *store.IDPConfig) error { c.Name = "changed"; return boom })
	wantCode(t, err, platform.EINVALID)
	list, _ := st.IDPConfigs(ctx, "cust-a")
	if len(list) != 1 || list[0].Name != "Okta" || list[0].Enabled {
		t.Fatalf("after a refused update: %+v", list)
	}
	_, err = st.UpdateIDPConfig(ctx, "missing", func(*store.IDPConfig) error { return nil })
	wantCode(t, err, platform.ENOTFOUND)
	if l, _ := st.IDPConfigs(ctx, "cust-b"); len(l) != 0 {
		t.Fatalf("cust-b sees %d identity providers", len(l))
	}
	if err := st.DeleteIDPConfig(ctx, "idp-1"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.DeleteIDPConfig(ctx, "idp-1"), platform.ENOTFOUND)
}

func testWebhooks(t *testing.T, st *store.Store) {
	w := &store.Webhook{ID: "wh-1", CustomerID: "cust-a", URL: "https://hooks.example/a", Events: []string{"*"},
		SecretSealed: []byte{9}, Active: true, CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreateWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	for i, e := range []store.AuditEvent{
		{ID: "ev-1", At: ts.Add(time.Second), ActorID: "u", CustomerID: "cust-a", Action: "manage_tenant POST", Resource: "tenants", Decision: "allowed", Reason: "allowed", Status: 201, RequestID: "r1"},
		{ID: "ev-2", At: ts.Add(2 * time.Second), ActorID: "u", CustomerID: "cust-a", Action: "manage_tenant POST", Resource: "tenants", Decision: "denied", Reason: "x", Status: 403, RequestID: "r2"},
		{ID: "ev-3", At: ts.Add(3 * time.Second), ActorID: "u", CustomerID: "cust-b", Action: "manage_tenant POST", Resource: "tenants", Decision: "allowed", Reason: "allowed", Status: 201, RequestID: "r3"},
		{ID: "ev-0", At: ts.Add(-time.Second), ActorID: "u", CustomerID: "cust-a", Action: "manage_tenant POST", Resource: "tenants", Decision: "allowed", Reason: "allowed", Status: 201, RequestID: "r0"},
	} {
		if err := st.AppendAudit(ctx, &e); err != nil {
			t.Fatal(i, err)
		}
	}
	w2 := *w
	w2.ID, w2.URL = "wh-2", "https://hooks.example/b"
	if err := st.CreateWebhook(ctx, &w2); err != nil {
		t.Fatal(err)
	}
	evs, err := st.WebhookEvents(ctx, time.Time{}, "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	// only the allowed event of cust-a after the webhooks were created, once per webhook
	if len(evs) != 2 || evs[0].Event.ID != "ev-1" || evs[0].WebhookID != "wh-1" || evs[1].WebhookID != "wh-2" ||
		evs[0].WebhookEvent[0] != "*" {
		t.Fatalf("webhook events = %+v", evs)
	}
	// paging by (at, event, webhook) resumes inside an event's webhooks
	evs, _ = st.WebhookEvents(ctx, evs[0].Event.At, "ev-1", "wh-1", 10)
	if len(evs) != 1 || evs[0].WebhookID != "wh-2" {
		t.Fatalf("after (ev-1, wh-1): %+v", evs)
	}
	evs, _ = st.WebhookEvents(ctx, ts.Add(time.Second), "", "", 10)
	if len(evs) != 2 {
		t.Fatalf("from the event's instant: %+v", evs)
	}
	if err := st.DeleteWebhook(ctx, "wh-2"); err != nil {
		t.Fatal(err)
	}
	d := &store.WebhookDelivery{ID: "d-1", WebhookID: "wh-1", EventID: "ev-1", EventType: "manage_tenant", Payload: "{}",
		NextAttemptAt: ts, CreatedAt: ts}
	if ok, err := st.AddWebhookDelivery(ctx, d); !ok || err != nil {
		t.Fatalf("add = %v, %v", ok, err)
	}
	d2 := *d
	d2.ID = "d-2"
	if ok, err := st.AddWebhookDelivery(ctx, &d2); ok || err != nil {
		t.Fatalf("second add of the same event = %v, %v; want false, nil", ok, err)
	}
	due, _ := st.DueWebhookDeliveries(ctx, ts.Add(-time.Second), 10)
	if len(due) != 0 {
		t.Fatalf("due before its time: %v", due)
	}
	due, _ = st.DueWebhookDeliveries(ctx, ts, 10)
	if len(due) != 1 {
		t.Fatalf("due = %v", due)
	}
	if ok, _ := st.ClaimWebhookDelivery(ctx, "d-1", ts, ts.Add(time.Minute)); !ok {
		t.Fatal("first claim lost")
	}
	if ok, _ := st.ClaimWebhookDelivery(ctx, "d-1", ts, ts.Add(time.Minute)); ok {
		t.Fatal("a leased delivery was claimed twice")
	}
	at := ts.Add(time.Second)
	d.Status, d.Attempts, d.LastStatusCode, d.DeliveredAt, d.NextAttemptAt = store.DeliveryDelivered, 1, 204, &at, at
	if err := st.RecordWebhookAttempt(ctx, d); err != nil {
		t.Fatal(err)
	}
	got, err := st.WebhookDelivery(ctx, "d-1")
	wantSame(t, "delivery", d, got, err)
	if c, _ := st.WebhookCursor(ctx, "x"); !c.IsZero() {
		t.Fatalf("fresh cursor = %v", c)
	}
	_ = st.SetWebhookCursor(ctx, "x", ts.Add(time.Hour))
	_ = st.SetWebhookCursor(ctx, "x", ts) // never back
	if c, _ := st.WebhookCursor(ctx, "x"); !c.Equal(ts.Add(time.Hour)) {
		t.Fatalf("cursor = %v", c)
	}
	if err := st.DeleteWebhook(ctx, "wh-1"); err != nil {
		t.Fatal(err)
	}
	_, err = st.WebhookDelivery(ctx, "d-1")
	wantCode(t, err, platform.ENOTFOUND)
}

// testServiceAccounts: a service account is its principal (a service user
// with a console role, never found by address) and its client, made and
// removed together; new credentials end its grants.
func testServiceAccounts(t *testing.T, st *store.Store) {
	app := func(id string) *platform.Application {
		return &platform.Application{AppID: "app-" + id, ClientID: "sa_" + id, Name: "ci", Kind: platform.AppService,
			SecretHash: "h1", AuthMethod: platform.AuthSecretBasic, UserID: "u-" + id, CreatedAt: ts}
	}
	a := &store.ServiceAccount{ID: "sa-1", CustomerID: "cust-a", Name: "ci", ClientID: "sa_1", SecretHash: "h1",
		UserID: "u-1", Role: "viewer", CreatedAt: ts, SecretRotatedAt: ts}
	if err := st.CreateServiceAccount(ctx, a, "org-cust-a", app("1")); err != nil {
		t.Fatal(err)
	}
	b := *a
	b.ID, b.UserID = "sa-2", "u-2"
	wantCode(t, st.CreateServiceAccount(ctx, &b, "org-cust-a", app("2")), platform.ECONFLICT) // name taken
	if _, err := st.User(ctx, "u-2"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("a refused service account left its user: %v", err)
	}
	grant := MustGrant(t, st, "u-1")
	p, role, err := st.Principal(ctx, "u-1", grant, ts)
	if err != nil || role != "viewer" || p.CustomerID != "cust-a" {
		t.Fatalf("the service account's principal = %+v %q, %v", p, role, err)
	}
	if users, _ := st.UsersByEmail(ctx, "sa_1@service-accounts.invalid", ""); len(users) != 0 {
		t.Fatal("a service account's user was found by address")
	}
	got, err := st.UpdateServiceAccountCredentials(ctx, "sa-1", ts.Add(time.Hour), func(x *platform.Application) error {
		x.SecretHash = "h2"
		return nil
	})
	if err != nil || got.SecretHash != "h2" || !got.SecretRotatedAt.Equal(ts.Add(time.Hour)) {
		t.Fatalf("after rotation: %+v, %v", got, err)
	}
	if x, _ := st.ApplicationByClientID(ctx, "sa_1"); x.SecretHash != "h2" {
		t.Fatalf("the client's secret after rotation: %q", x.SecretHash)
	}
	if _, _, err := st.Principal(ctx, "u-1", grant, ts); err == nil {
		t.Fatal("the service account's grant survived the rotation")
	}
	if err := st.SetServiceAccountRole(ctx, "sa-1", "admin"); err != nil {
		t.Fatal(err)
	}
	if _, role, _ := st.Principal(ctx, "u-1", MustGrant(t, st, "u-1"), ts); role != "admin" {
		t.Fatalf("role after the change = %q", role)
	}
	internal := &store.ServiceAccount{ID: "sa-3", Name: "ci", ClientID: "sa_3", SecretHash: "h1", UserID: "u-3", Role: "reader",
		CreatedAt: ts, SecretRotatedAt: ts}
	if err := st.CreateServiceAccount(ctx, internal, "org-cust-a", app("3")); err != nil {
		t.Fatal(err)
	}
	dup := *internal
	dup.ID, dup.ClientID, dup.UserID = "sa-4", "sa_4", "u-4"
	wantCode(t, st.CreateServiceAccount(ctx, &dup, "org-cust-a", app("4")), platform.ECONFLICT)
	if list, _ := st.ServiceAccounts(ctx, ""); len(list) != 1 || list[0].ID != "sa-3" {
		t.Fatalf("internal service accounts = %+v", list)
	}
	if err := st.DeleteServiceAccount(ctx, "sa-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.User(ctx, "u-1"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("the deleted account's user: %v", err)
	}
	if _, err := st.ApplicationByClientID(ctx, "sa_1"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("the deleted account's client: %v", err)
	}
	wantCode(t, st.DeleteServiceAccount(ctx, "nope"), platform.ENOTFOUND)
}

func testBilling(t *testing.T, st *store.Store) {
	m := &store.Meter{ID: "m-1", Key: "api_calls", Name: "API calls", Unit: "call", Aggregation: "sum", CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreateMeter(ctx, m); err != nil {
		t.Fatal(err)
	}
	p := &store.Plan{ID: "p-1", Code: "pro", Name: "Pro", Currency: "EUR", MonthlyFeeCents: 9900, Active: true, CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreatePlan(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := st.UpdatePlan(ctx, "p-1", func(p *store.Plan) error { p.Public = true; return nil }); err != nil || !got.Public {
		t.Fatalf("plan made public: %+v %v", got, err)
	}
	if got, err := st.Plan(ctx, "p-1"); err != nil || !got.Public || !got.Active {
		t.Fatalf("plan read back: %+v %v", got, err)
	}
	wantCode(t, st.CreatePlan(ctx, &store.Plan{ID: "p-2", Code: "pro", Name: "x", Currency: "EUR", CreatedAt: ts, UpdatedAt: ts}), platform.ECONFLICT)
	for _, u := range []store.UsageRow{
		{ID: "u1", CustomerID: "cust-a", MeterKey: "api_calls", Period: "2026-01", Units: 1.5, BilledAmountCents: 150, Currency: "EUR"},
		{ID: "u2", CustomerID: "cust-a", MeterKey: "api_calls", Period: "2026-02", Units: 10, BilledAmountCents: 1000, Currency: "EUR"},
		{ID: "u3", CustomerID: "cust-b", MeterKey: "api_calls", Period: "2026-02", Units: 7, BilledAmountCents: 700, Currency: "EUR"},
		{ID: "u4", CustomerID: "cust-a", MeterKey: "api_calls", Period: "2026-02", Units: 11, BilledAmountCents: 1100, Currency: "EUR"}, // replaces u2
	} {
		if err := st.PutUsageRow(ctx, &u); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(q store.UsageQuery) []string {
		rows, _, err := st.UsageRows(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return keys(rows, func(r store.UsageRow) string { return r.CustomerID + "/" + r.Period + "/" + r.Unit })
	}
	all := authz.Filter{All: true}
	for name, tc := range map[string]struct {
		q    store.UsageQuery
		want []string
	}{
		"All":      {store.UsageQuery{Customers: all}, []string{"cust-a/2026-02/call", "cust-b/2026-02/call", "cust-a/2026-01/call"}},
		"ScopeA":   {store.UsageQuery{Customers: authz.Filter{CustomerIDs: []string{"cust-a"}}}, []string{"cust-a/2026-02/call", "cust-a/2026-01/call"}},
		"NoScope":  {store.UsageQuery{Customers: authz.Filter{}}, nil},
		"OutScope": {store.UsageQuery{Customers: authz.Filter{CustomerIDs: []string{"cust-a"}}, CustomerID: "cust-b"}, nil},
		"Period":   {store.UsageQuery{Customers: all, From: "2026-02", To: "2026-02"}, []string{"cust-a/2026-02/call", "cust-b/2026-02/call"}},
	} {
		wantSame(t, name, tc.want, ids(tc.q), nil)
	}
	rows, _, _ := st.UsageRows(ctx, store.UsageQuery{Customers: all, CustomerID: "cust-a", From: "2026-02"})
	if len(rows) != 1 || rows[0].Units != 11 || rows[0].BilledAmountCents != 1100 {
		t.Fatalf("replaced usage row = %+v", rows)
	}
	wantCode(t, st.DeleteMeter(ctx, "m-1"), platform.ECONFLICT)
	totals, err := st.BilledTotals(ctx, "cust-a", "", "")
	want := []store.BilledTotal{{Period: "2026-02", Currency: "EUR", AmountCents: 1100}, {Period: "2026-01", Currency: "EUR", AmountCents: 150}}
	wantSame(t, "billed totals", want, totals, err)
	if totals, _ := st.BilledTotals(ctx, "cust-a", "2026-02", "2026-12"); len(totals) != 1 {
		t.Errorf("billed totals from 2026-02: %+v", totals)
	}

	if err := st.PutBillingSetup(ctx, &store.BillingSetup{CustomerID: "cust-a", PlanID: "p-1", BillingEmail: "ap@a.example",
		Currency: "EUR", PaymentMethod: "invoice", UpdatedAt: ts, UpdatedBy: "u"}); err != nil {
		t.Fatal(err)
	}
	if err := st.DeletePlan(ctx, "p-1"); err != nil {
		t.Fatal(err)
	}
	bs, err := st.BillingSetup(ctx, "cust-a")
	if err != nil || bs.PlanID != "" || bs.BillingEmail != "ap@a.example" {
		t.Fatalf("billing setup after its plan went = %+v, %v", bs, err)
	}
	_, err = st.BillingSetup(ctx, "cust-b")
	wantCode(t, err, platform.ENOTFOUND)

	for i, c := range []string{"cust-a", "cust-b", "cust-a"} {
		inv := &store.Invoice{ID: "inv-" + string(rune('1'+i)), CustomerID: c, Number: "N-" + string(rune('1'+i)), Period: "2026-01",
			Currency: "EUR", TotalCents: 100, Status: "open", IssuedAt: ts.Add(time.Duration(i) * time.Hour), DueAt: ts.Add(48 * time.Hour)}
		if err := st.CreateInvoice(ctx, inv); err != nil {
			t.Fatal(err)
		}
	}
	invs, _, _ := st.Invoices(ctx, store.BillingQuery{Customers: authz.Filter{CustomerIDs: []string{"cust-a"}}})
	if len(invs) != 2 || invs[0].ID != "inv-3" {
		t.Fatalf("scoped invoices = %+v", invs)
	}
	if invs, _, _ := st.Invoices(ctx, store.BillingQuery{Customers: all, Status: "paid"}); len(invs) != 0 {
		t.Fatalf("paid invoices = %+v", invs)
	}
	if err := st.CreatePayment(ctx, &store.Payment{ID: "pay-1", CustomerID: "cust-a", InvoiceID: "inv-1", AmountCents: 100,
		Currency: "EUR", Method: "card", Status: "succeeded", ReceivedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateCredit(ctx, &store.Credit{ID: "cr-1", CustomerID: "cust-b", AmountCents: 500, Currency: "EUR",
		Reason: "outage", IssuedBy: "u", IssuedAt: ts}); err != nil {
		t.Fatal(err)
	}
	pays, _, _ := st.Payments(ctx, store.BillingQuery{Customers: authz.Filter{CustomerIDs: []string{"cust-b"}}})
	creds, _, _ := st.Credits(ctx, store.BillingQuery{Customers: authz.Filter{CustomerIDs: []string{"cust-b"}}})
	if len(pays) != 0 || len(creds) != 1 || creds[0].AmountCents != 500 || creds[0].Kind != store.CreditAdjustment || creds[0].InvoiceID != "" {
		t.Fatalf("cust-b payments %+v credits %+v", pays, creds)
	}
	// the next invoice's credits: summed by kind in its currency, those on an issued invoice left out
	for _, c := range []store.Credit{
		{ID: "cr-2", Kind: store.CreditPurchase, AmountCents: 1000, Currency: "EUR"},
		{ID: "cr-3", Kind: store.CreditPurchase, AmountCents: 250, Currency: "EUR"},
		{ID: "cr-4", Kind: store.CreditPurchase, AmountCents: 999, Currency: "USD"},
		{ID: "cr-5", Kind: store.CreditAdjustment, AmountCents: 300, Currency: "EUR", InvoiceID: "inv-1"},
	} {
		c.CustomerID, c.Reason, c.IssuedBy, c.IssuedAt = "cust-b", "x", "u", ts
		if err := st.CreateCredit(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	open, err := st.OpenCredits(ctx, "cust-b", "EUR")
	wantOpen := []store.CreditTotal{{Kind: store.CreditAdjustment, Count: 1, AmountCents: 500}, {Kind: store.CreditPurchase, Count: 2, AmountCents: 1250}}
	if err != nil || len(open) != 2 || open[0] != wantOpen[0] || open[1] != wantOpen[1] {
		t.Fatalf("open credits = %+v %v, want %+v", open, err, wantOpen)
	}
	if err := st.CreateCredit(ctx, &store.Credit{ID: "cr-6", CustomerID: "cust-b", Kind: "gift", AmountCents: 1, Currency: "EUR",
		Reason: "x", IssuedBy: "u", IssuedAt: ts}); err == nil {
		t.Fatal("a credit of an unknown kind was stored")
	}

	// paging walks every row once, in order, whatever the page size
	walk := func(page func(cursor string) ([]string, string, error)) []string {
		var out []string
		cursor := ""
		for i := 0; i < 10; i++ {
			ids, next, err := page(cursor)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ids...)
			if next == "" {
				return out
			}
			cursor = next
		}
		t.Fatal("paging does not end")
		return nil
	}
	usagePage := func(cursor string) ([]string, string, error) {
		rows, next, err := st.UsageRows(ctx, store.UsageQuery{Customers: all, Limit: 1, Cursor: cursor})
		return keys(rows, func(r store.UsageRow) string { return r.CustomerID + "/" + r.Period }), next, err
	}
	wantSame(t, "usage pages", []string{"cust-a/2026-02", "cust-b/2026-02", "cust-a/2026-01"}, walk(usagePage), nil)
	invoicePage := func(cursor string) ([]string, string, error) {
		rows, next, err := st.Invoices(ctx, store.BillingQuery{Customers: all, Limit: 2, Cursor: cursor})
		return keys(rows, func(r store.Invoice) string { return r.ID }), next, err
	}
	wantSame(t, "invoice pages", []string{"inv-3", "inv-2", "inv-1"}, walk(invoicePage), nil)
	_, _, err = st.Invoices(ctx, store.BillingQuery{Customers: all, Cursor: "garbage"})
	wantCode(t, err, platform.EINVALID)
	_, _, err = st.UsageRows(ctx, store.UsageQuery{Customers: all, Cursor: store.EncodeCursor("2026-01", "no-meter-part")})
	wantCode(t, err, platform.EINVALID)
}

func testInfraRecords(t *testing.T, st *store.Store) {
	r := &store.Release{ID: "r-1", Version: "1.2.0", Channel: "stable", Status: "draft", CreatedBy: "u", CreatedAt: ts}
	if err := st.CreateRelease(ctx, r); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.CreateRelease(ctx, &store.Release{ID: "r-2", Version: "1.2.0", Channel: "stable", Status: "draft", CreatedBy: "u", CreatedAt: ts}), platform.ECONFLICT)
	pub := ts.Add(time.Hour)
	got, err := st.UpdateRelease(ctx, "r-1", func(r *store.Release) error { r.Status, r.PublishedAt = "published", &pub; return nil })
	if err != nil || got.Status != "published" {
		t.Fatalf("publish = %+v, %v", got, err)
	}
	if got, _ := st.Release(ctx, "r-1"); got.PublishedAt == nil || !got.PublishedAt.Equal(pub) {
		t.Fatalf("published at = %v", got.PublishedAt)
	}

	v := &store.EnvVar{ID: "e-1", Name: "API_KEY", Secret: true, ValueSealed: []byte{7, 7}, UpdatedAt: ts, UpdatedBy: "u"}
	if err := st.CreateEnvVar(ctx, v); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.CreateEnvVar(ctx, &store.EnvVar{ID: "e-2", Name: "API_KEY", UpdatedAt: ts, UpdatedBy: "u"}), platform.ECONFLICT)
	gotV, err := st.EnvVar(ctx, "e-1")
	wantSame(t, "env var", v, gotV, err)

	ws, err := st.SystemWorkers(ctx)
	if err != nil || len(ws) == 0 || ws[0].ID != "webhook-delivery" {
		t.Fatalf("seeded workers = %+v, %v", ws, err)
	}
	if err := st.RecordWorkerRun(ctx, "webhook-delivery", ts, "boom"); err != nil {
		t.Fatal(err)
	}
	_ = st.RecordWorkerRun(ctx, "webhook-delivery", ts, "boom")
	w, _ := st.SystemWorker(ctx, "webhook-delivery")
	if w.Failures != 2 || w.LastError != "boom" || w.LastRunAt == nil {
		t.Fatalf("after two failures: %+v", w)
	}
	_ = st.RequestWorkerRun(ctx, "webhook-delivery", ts)
	_ = st.RecordWorkerRun(ctx, "webhook-delivery", ts.Add(time.Minute), "")
	w, _ = st.SystemWorker(ctx, "webhook-delivery")
	if w.Failures != 0 || w.RunRequestedAt != nil {
		t.Fatalf("after a good run: %+v", w)
	}
	wantCode(t, st.SetWorkerPaused(ctx, "nope", true), platform.ENOTFOUND)

	a := &store.UserAttribute{ID: "a-1", Key: "cost_center", Label: "Cost center", Type: "enum", Options: []string{"a", "b"},
		CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreateUserAttribute(ctx, a); err != nil {
		t.Fatal(err)
	}
	gotA, err := st.UserAttribute(ctx, "a-1")
	wantSame(t, "user attribute", a, gotA, err)

	d := &store.Discrepancy{ID: "x-1", Kind: "billing", CustomerID: "cust-a", Summary: "s", Status: store.DiscrepancyOpen, DetectedAt: ts}
	if err := st.CreateDiscrepancy(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := st.SetDiscrepancyStatus(ctx, "x-1", store.DiscrepancyResolved, &pub, "u", "fixed"); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateDiscrepancy(ctx, &store.Discrepancy{ID: "x-2", Kind: "drift", Summary: "platform-wide",
		Status: store.DiscrepancyOpen, DetectedAt: ts}); err != nil {
		t.Fatal(err)
	}
	every := authz.Filter{All: true}
	open, _ := st.Discrepancies(ctx, store.DiscrepancyOpen, every, 0)
	all, _ := st.Discrepancies(ctx, "", every, 0)
	if len(open) != 1 || open[0].ID != "x-2" || len(all) != 2 {
		t.Fatalf("open %+v, all %+v", open, all)
	}
	x1, _ := st.Discrepancy(ctx, "x-1")
	if x1.ResolvedBy != "u" || x1.ResolvedAt == nil || x1.Status != store.DiscrepancyResolved {
		t.Fatalf("resolved: %+v", x1)
	}
	// a customer lens shows platform-wide items and that customer's
	forB, _ := st.Discrepancies(ctx, "", authz.Filter{CustomerIDs: []string{"cust-b"}}, 0)
	forA, _ := st.Discrepancies(ctx, "", authz.Filter{CustomerIDs: []string{"cust-a"}}, 0)
	if len(forB) != 1 || forB[0].ID != "x-2" || len(forA) != 2 {
		t.Fatalf("for cust-b %+v, for cust-a %+v", forB, forA)
	}
}
