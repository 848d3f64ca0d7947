package adminhttp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// TestAttackCustomerRowsWithoutEnd: a customer's owner (or a script with
// its token) adds webhooks, identity providers and service accounts without
// end, each webhook multiplying the deliveries every later event of the
// customer costs the dispatcher: past its budget each is refused 409 with
// the 7.1 object and nothing is written, also when the last ones are sent
// at once; another customer keeps its own budget.
//
// attack: customer-rows-without-end
func TestAttackCustomerRowsWithoutEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust, other := e.mustCustomer(), e.mustCustomer()
	owner, otherOwner := e.mustUser(authz.Owner, cust), e.mustUser(authz.Owner, other)
	n := 0
	for _, tc := range []struct {
		name  string
		max   int
		path  string
		body  func() map[string]any
		count func() int
	}{
		{"Webhooks", admin.MaxWebhooks, "/webhooks", func() map[string]any {
			return map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}
		}, func() int { w, _ := e.st.Webhooks(context.Background(), cust); return len(w) }},
		{"IdentityProviders", admin.MaxIdentityProviders, "/identity-providers", func() map[string]any {
			n++
			return map[string]any{"name": fmt.Sprintf("IdP %d", n), "issuer": "https://login.example", "clientId": "abc", "clientSecret": "s3cret"}
		}, func() int { p, _ := e.st.IDPConfigs(context.Background(), cust); return len(p) }},
		{"ServiceAccounts", admin.MaxServiceAccounts, "/service-accounts", func() map[string]any {
			n++
			return map[string]any{"name": fmt.Sprintf("robot %d", n), "role": "viewer"}
		}, func() int { a, _ := e.st.ServiceAccounts(context.Background(), cust); return len(a) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/customers/" + cust + tc.path
			for i := 0; i < tc.max-3; i++ {
				if r := e.do(owner, http.MethodPost, path, tc.body()); r.Status != http.StatusCreated {
					t.Fatalf("%s %d: %d %s", tc.name, i+1, r.Status, r.Body)
				}
			}
			// the last three and three more, at once: three pass, three are refused
			bodies := make([]map[string]any, 6)
			for i := range bodies {
				bodies[i] = tc.body()
			}
			statuses := make([]int, len(bodies))
			var wg sync.WaitGroup
			for i := range bodies {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = e.do(owner, http.MethodPost, path, bodies[i]).Status
				}()
			}
			wg.Wait()
			created, refused := 0, 0
			for _, s := range statuses {
				switch s {
				case http.StatusCreated:
					created++
				case http.StatusConflict:
					refused++
				}
			}
			if created != 3 || refused != 3 {
				t.Errorf("at the budget's edge: %v, want 3 created and 3 refused 409", statuses)
			}
			r := e.do(owner, http.MethodPost, path, tc.body())
			if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), fmt.Sprintf("at most %d", tc.max)) {
				t.Errorf("past the budget: %d %s", r.Status, r.Body)
			}
			checkErrorObject(t, r, path)
			if got := tc.count(); got != tc.max {
				t.Errorf("%d stored, want the budget's %d", got, tc.max)
			}
			if r := e.do(otherOwner, http.MethodPost, "/customers/"+other+tc.path, tc.body()); r.Status != http.StatusCreated {
				t.Errorf("another customer's first: %d %s", r.Status, r.Body)
			}
		})
	}
}

// cleanupApps is fakeApps whose applications collide with a stored
// connection's client id (so the instance is not stored) and which
// records the context the application's removal runs under.
type cleanupApps struct {
	*fakeApps
	clientID string
	mu       sync.Mutex
	deadline bool
	done     bool
}

func (a *cleanupApps) Create(ctx context.Context, in admin.AppInput) (*admin.App, error) {
	app, err := a.fakeApps.Create(ctx, in)
	if err == nil {
		app.ClientID = a.clientID
	}
	return app, err
}

func (a *cleanupApps) Delete(ctx context.Context, appID string) error {
	a.mu.Lock()
	_, a.deadline = ctx.Deadline()
	a.done = ctx.Err() != nil
	a.mu.Unlock()
	return a.fakeApps.Delete(ctx, appID)
}

// TestInstanceCleanupBounded: an instance whose row cannot be stored has
// its application removed at the identity provider under a context of its
// own, which outlives the request's cancellation but has a deadline
// (D-request-bounds).
func TestInstanceCleanupBounded(t *testing.T) {
	t.Parallel()
	apps := &cleanupApps{fakeApps: newFakeApps()}
	e := newEnv(t, admin.WithApps(apps))
	cust := e.mustCustomer()
	taken := e.mustInstance(cust)
	apps.clientID = "client-" + taken // the stored connection's: the new row collides
	plat := e.mustUser(authz.PlatformAdmin, "")
	r := e.do(plat, http.MethodPost, "/instances", map[string]any{"customerId": cust, "name": "Second", "url": "https://second.example"})
	if r.Status < 400 {
		t.Fatalf("an instance with a taken client id was stored: %d %s", r.Status, r.Body)
	}
	apps.mu.Lock()
	defer apps.mu.Unlock()
	if !apps.deadline || apps.done {
		t.Errorf("the application's removal ran with deadline=%v, ended=%v; want a live context with a deadline", apps.deadline, apps.done)
	}
	if len(apps.apps) != 0 {
		t.Errorf("applications left at the provider: %v", apps.apps)
	}
}
