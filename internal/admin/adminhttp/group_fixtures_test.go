package adminhttp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Fixtures of the group routes for the capability-matrix test, and the
// store helpers the group tests share.

// mustGroup creates a group of a customer's organization ("" for an
// internal group) binding role ("" none).
func (e *env) mustGroup(customerID, role string) string {
	e.t.Helper()
	ctx := context.Background()
	org := e.adminOrg
	if customerID != "" {
		c, err := e.st.Customer(ctx, customerID)
		if err != nil {
			e.t.Fatal(err)
		}
		org = c.OrgID
	}
	id, now := e.id("group"), time.Now()
	if err := e.st.CreateGroup(ctx, &platform.Group{ID: id, OrgID: org, Name: "Group " + id, Role: role, CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// mustGroupMember adds a user to a group, or makes it its manager.
func (e *env) mustGroupMember(manager bool, groupID, userID string) {
	e.t.Helper()
	if _, err := e.st.AddGroupMember(context.Background(), manager, groupID, userID, time.Now()); err != nil {
		e.t.Fatal(err)
	}
}

// mustGroupGrant grants a group a customer, or an instance.
func (e *env) mustGroupGrant(groupID string, instance bool, target string) {
	e.t.Helper()
	if err := e.st.PutGrant(context.Background(), instance, &store.Grant{GranteeType: store.GranteeGroup, GranteeID: groupID,
		TargetID: target, GrantedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
}

func init() {
	registerFixture("group_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.CustomerID), Body: map[string]any{"name": "G " + w.env.id("g"), "role": "viewer"}}
	})
	registerFixture("group", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustGroup(w.CustomerID, "viewer"))}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"name": "Renamed " + w.env.id("g")}
		}
		return r
	})
	registerFixture("group_member", func(t *testing.T, w *World, rt routeRow) Request {
		g := w.env.mustGroup(w.CustomerID, "viewer")
		u := w.env.mustUser(authz.Member, w.CustomerID)
		if rt.Method == "DELETE" {
			w.env.mustGroupMember(strings.Contains(rt.Pattern, "/managers/"), g, u)
		}
		return Request{Params: params("id", g, "userId", u)}
	})
	registerFixture("internal_group_new", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Body: map[string]any{"name": "G " + w.env.id("g"), "role": "reader"}}
	})
	registerFixture("internal_group", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.env.mustGroup("", "reader"))}
		if rt.Method == "PATCH" {
			r.Body = map[string]any{"name": "Renamed " + w.env.id("g")}
		}
		return r
	})
	registerFixture("internal_group_member", func(t *testing.T, w *World, rt routeRow) Request {
		g := w.env.mustGroup("", "reader")
		u := w.env.mustUser(authz.Reader, "")
		if rt.Method == "DELETE" {
			w.env.mustGroupMember(strings.Contains(rt.Pattern, "/managers/"), g, u)
		}
		return Request{Params: params("id", g, "userId", u)}
	})
	registerFixture("internal_group_grant", func(t *testing.T, w *World, rt routeRow) Request {
		g := w.env.mustGroup("", "account_manager")
		switch {
		case rt.Method == "POST":
			return Request{Params: params("id", g), Body: map[string]any{"customerId": w.CustomerID}}
		case strings.Contains(rt.Pattern, "/instances/"):
			w.env.mustGroupGrant(g, true, w.InstanceID)
			return Request{Params: params("id", g, "targetId", w.InstanceID)}
		default:
			w.env.mustGroupGrant(g, false, w.CustomerID)
			return Request{Params: params("id", g, "targetId", w.CustomerID)}
		}
	})
}
