package adminhttp

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// World is one caller in one scope situation, with the customers and
// instances the situation talks about. Fixtures build requests in it.
type World struct {
	env   *env
	Role  authz.Role
	Scope string
	// Caller is the calling user.
	Caller string
	// Home is the customer the caller's scope holds (granted, focused, or
	// a customer role's own); Other is a customer outside it.
	Home, Other string
	// HomeInstance is an instance of Home the caller is granted (qa_admin);
	// HomeInstance2 is one of Home it is not; OtherInstance is Other's.
	HomeInstance, HomeInstance2, OtherInstance string
	// CustomerID and InstanceID are what a request of this situation acts
	// on: Home and HomeInstance when in scope, Other and OtherInstance when
	// out, Home and HomeInstance2 for instance_out.
	CustomerID, InstanceID string
	// viaGroup: the caller's role and grants come from a group (newGroupWorld).
	viaGroup bool
}

// newWorld builds a fresh situation: two customers with instances and a
// caller of role with its grants and focus mode.
func newWorld(e *env, role authz.Role, scope string) *World {
	w := &World{env: e, Role: role, Scope: scope}
	w.Home, w.Other = e.mustCustomer(), e.mustCustomer()
	w.HomeInstance, w.HomeInstance2, w.OtherInstance = e.mustInstance(w.Home), e.mustInstance(w.Home), e.mustInstance(w.Other)
	if role.Portal() {
		w.Caller = e.mustUser(role, w.Home)
	} else {
		w.Caller = e.mustUser(role, "")
	}
	if role.Scoped() {
		e.mustGrant(w.Caller, false, w.Home)
		if role.InstanceScoped() {
			e.mustGrant(w.Caller, true, w.HomeInstance)
		}
	}
	if scope == scopeFocusIn || scope == scopeFocusOut {
		e.mustFocus(w.Caller, w.Home)
	}
	switch scope {
	case scopeOut, scopeFocusOut, scopeOther:
		w.CustomerID, w.InstanceID = w.Other, w.OtherInstance
	case scopeInstanceOut:
		w.CustomerID, w.InstanceID = w.Home, w.HomeInstance2
	default:
		w.CustomerID, w.InstanceID = w.Home, w.HomeInstance
	}
	return w
}

// Fresh returns a new world of the same role and situation, for requests
// that change the caller or destroy the world's customer.
func (w *World) Fresh() *World {
	if w.viaGroup {
		return newGroupWorld(w.env, w.Role, w.Scope)
	}
	return newWorld(w.env, w.Role, w.Scope)
}

// Request is what a fixture builds: path parameters, a body (nil, a string
// sent as is, or a value sent as JSON) and, when set, another caller (of a
// fresh world).
type Request struct {
	Params map[string]string
	Body   any
	Caller string
}

func (r Request) caller(w *World) string {
	if r.Caller != "" {
		return r.Caller
	}
	return w.Caller
}

// path fills a pattern's {params}.
func (r Request) path(pattern string) string {
	p := pattern
	for k, v := range r.Params {
		p = strings.ReplaceAll(p, "{"+k+"}", url.PathEscape(v))
	}
	if strings.Contains(p, "{") {
		panic("fixture left a parameter unset in " + pattern + ": " + p)
	}
	return p
}

// Fixture builds a request for rt in w. It may create whatever the request
// needs (a fresh tenant to delete, a user to suspend) through w.env.
type Fixture func(t *testing.T, w *World, rt routeRow) Request

// fixtures by name, as routeFixtures refers to them.
var fixtures = map[string]Fixture{}

// registerFixture adds a fixture; other files of the package add theirs in
// an init function (the extension point for new resource families).
func registerFixture(name string, f Fixture) {
	if fixtures[name] != nil {
		panic("fixture registered twice: " + name)
	}
	fixtures[name] = f
}

func params(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func init() {
	// Requests that name nothing.
	registerFixture("none", func(t *testing.T, w *World, rt routeRow) Request { return Request{} })

	// Customers.
	registerFixture("customer_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"name": "New " + w.env.id("c")}}
	})
	registerFixture("customer", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.CustomerID)}
		switch {
		case rt.Method == "PATCH":
			r.Body = map[string]any{"name": "Renamed " + w.env.id("c")}
		case rt.Method == "PUT":
			r.Body = map[string]any{"theme": "dark"}
		}
		return r
	})
	// Destroys or hands over the customer: a fresh world each time.
	registerFixture("customer_fresh", func(t *testing.T, w *World, rt routeRow) Request {
		f := w.Fresh()
		return Request{Params: params("id", f.CustomerID), Caller: f.Caller}
	})
	registerFixture("ownership", func(t *testing.T, w *World, rt routeRow) Request {
		f := w.Fresh()
		u := w.env.mustUser(authz.Admin, f.CustomerID)
		return Request{Params: params("id", f.CustomerID), Caller: f.Caller, Body: map[string]any{"userId": u}}
	})

	// Tenants.
	registerFixture("tenant_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"customerId": w.CustomerID, "instanceId": w.InstanceID, "name": "T " + w.env.id("t")}}
	})
	registerFixture("tenant", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustTenant(w.CustomerID, w.InstanceID))}
		switch {
		case rt.Method == "PATCH":
			r.Body = map[string]any{"name": "Renamed"}
		case rt.Method == "PUT":
			r.Body = map[string]any{"locale": "de"}
		case rt.Method == "POST" && strings.HasSuffix(rt.Pattern, "/migrations"):
			r.Body = map[string]any{"targetVersion": "2026.1"}
		}
		return r
	})
	registerFixture("tenant_member", func(t *testing.T, w *World, rt routeRow) Request {
		tid := w.env.mustTenant(w.CustomerID, w.InstanceID)
		u := w.env.mustUser(authz.Member, w.CustomerID)
		if rt.Method == "DELETE" {
			mustMember(t, w, tid, u)
		}
		return Request{Params: params("id", tid, "userId", u), Body: bodyFor(rt, map[string]any{"role": "viewer"})}
	})
	registerFixture("tenant_transfer", func(t *testing.T, w *World, rt routeRow) Request {
		tid := w.env.mustTenant(w.CustomerID, w.InstanceID)
		return Request{Params: params("id", tid), Body: map[string]any{"customerId": w.env.mustCustomer()}}
	})

	// Instances.
	registerFixture("instance_new", func(t *testing.T, w *World, rt routeRow) Request {
		n := w.env.id("i")
		return Request{Body: map[string]any{"customerId": w.CustomerID, "name": "I " + n, "url": "https://" + n + ".example"}}
	})
	registerFixture("instance", func(t *testing.T, w *World, rt routeRow) Request {
		iid := w.InstanceID
		if rt.Write {
			iid = w.env.mustInstance(w.CustomerID) // writes may delete or rotate: a fresh one
		}
		r := Request{Params: params("id", iid)}
		if rt.Method == "PUT" && rt.Pattern == "/instances/{id}" {
			r.Body = map[string]any{"name": "Moved", "url": "https://moved-" + iid + ".example"}
		}
		return r
	})

	// Customer users.
	registerFixture("invite", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.CustomerID),
			Body: map[string]any{"email": w.env.id("invitee") + "@example.com", "name": "Invitee", "role": "viewer"}}
	})
	registerFixture("user", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		if strings.HasSuffix(rt.Pattern, "/reactivate") {
			if err := w.env.st.SetUserSuspended(context.Background(), u, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		r := Request{Params: params("id", u)}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"role": "billing"}
		}
		return r
	})
	registerFixture("user_transfer", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", u), Body: map[string]any{"customerId": w.env.mustCustomer()}}
	})

	// Internal users and grants.
	registerFixture("internal_user_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"email": w.env.id("staff") + "@platform.example", "name": "Staff", "role": "reader"}}
	})
	registerFixture("internal_user", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustUser(authz.AccountManager, ""))}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"role": "reader"}
		}
		return r
	})
	registerFixture("grant_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"userId": w.env.mustUser(authz.AccountManager, ""), "customerId": w.CustomerID}}
	})
	registerFixture("customer_grant", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.AccountManager, "")
		w.env.mustGrant(u, false, w.CustomerID)
		return Request{Params: params("id", w.CustomerID, "userId", u)}
	})
	registerFixture("instance_grant", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.QAAdmin, "")
		w.env.mustGrant(u, true, w.InstanceID)
		return Request{Params: params("id", w.InstanceID, "userId", u)}
	})

	// The caller's own focus mode and subscriptions.
	registerFixture("focus_enter", func(t *testing.T, w *World, rt routeRow) Request {
		f := w.Fresh()
		return Request{Caller: f.Caller, Body: map[string]any{"customerId": f.Home, "minutes": 30}}
	})
	registerFixture("focus_leave", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Caller: w.Fresh().Caller}
	})
	registerFixture("subscription_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"eventType": "worker.failed"}}
	})
	registerFixture("subscription", func(t *testing.T, w *World, rt routeRow) Request {
		ev := fmt.Sprintf("test.event_%d", w.env.seq.Add(1))
		if err := w.env.st.Subscribe(context.Background(), w.Caller, ev, time.Now()); err != nil {
			t.Fatal(err)
		}
		return Request{Params: params("eventType", ev)}
	})
}

// bodyFor returns body for methods that carry one.
func bodyFor(rt routeRow, body any) any {
	if rt.Method == "GET" || rt.Method == "DELETE" {
		return nil
	}
	return body
}

func mustMember(t *testing.T, w *World, tenantID, userID string) {
	t.Helper()
	if err := w.env.st.PutTenantMember(context.Background(), &store.TenantMember{TenantID: tenantID, UserID: userID, Role: "member",
		AddedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
}
