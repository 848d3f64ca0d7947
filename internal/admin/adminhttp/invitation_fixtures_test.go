package adminhttp

import (
	"context"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

func init() {
	// A user whose invitation is open (no password yet): the one kind of
	// user an invitation can be resent to or revoked for.
	registerFixture("invited_user", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustInvited(authz.Member, w.CustomerID))}
	})
	registerFixture("invited_internal_user", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.env.mustInvited(authz.AccountManager, ""))}
	})
}

// mustInvited is mustUser without a password.
func (e *env) mustInvited(role authz.Role, customerID string) string {
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
	id := e.id("invited")
	now := time.Now()
	if err := e.st.CreateUser(ctx, &platform.User{ID: id, OrgID: org, Email: id + "@example.com", Name: "Invited " + id,
		CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: role.String(), CustomerID: customerID,
		CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	return id
}
