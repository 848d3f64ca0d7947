package adminhttp

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

func init() {
	// A user of a customer that allows support impersonation.
	registerFixture("impersonate", func(t *testing.T, w *World, rt routeRow) Request {
		w.env.mustAllowImpersonation(w.CustomerID, true)
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", u), Body: map[string]any{"reason": "ticket 4711: the export fails"}}
	})
	// A running impersonation of a customer's user.
	registerFixture("impersonation", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", w.env.mustImpersonation(w.CustomerID, u, w.env.mustUser(authz.PlatformAdmin, "")))}
	})
	registerFixture("impersonation_policy", func(t *testing.T, w *World, rt routeRow) Request {
		return Request{Params: params("id", w.CustomerID), Body: bodyFor(rt, map[string]any{"allowed": true})}
	})
}

// mustAllowImpersonation records customerID's decision on support impersonation.
func (e *env) mustAllowImpersonation(customerID string, allowed bool) {
	e.t.Helper()
	if err := e.st.SetCustomerImpersonation(context.Background(), customerID, allowed, "seed", time.Now()); err != nil {
		e.t.Fatal(err)
	}
}

// mustImpersonation starts an impersonation of userID by actorID, already
// exchanged, with its grant; it answers its id (also the grant's).
func (e *env) mustImpersonation(customerID, userID, actorID string) string {
	e.t.Helper()
	ctx := context.Background()
	now := time.Now()
	id := uuid.NewString()
	e.mustAllowImpersonation(customerID, true)
	if err := e.st.CreateImpersonation(ctx, &store.Impersonation{ID: id, CustomerID: customerID, UserID: userID, ActorID: actorID,
		Reason: "seed", TokenHash: "hash-" + id, CreatedAt: now, TokenExpiresAt: now.Add(time.Minute), ExpiresAt: now.Add(time.Minute)}); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.st.ExchangeImpersonation(ctx, "hash-"+id, actorID, "", now, now.Add(time.Hour)); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.CreateAccessToken(ctx, &store.AccessToken{ID: uuid.NewString(), FamilyID: id, ClientID: "console", UserID: userID,
		CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func init() {
	// An impersonation awaiting the caller's approval (the customer named
	// it approver, D-impersonation-approval).
	registerFixture("impersonation_request", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", w.env.mustImpersonationRequest(w.CustomerID, u, w.env.mustUser(authz.PlatformAdmin, ""),
			w.Caller, store.ApprovalPending))}
	})
	// An approved impersonation the caller asked for, its subject token not
	// collected yet.
	registerFixture("impersonation_approved", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", w.env.mustImpersonationRequest(w.CustomerID, u, w.Caller,
			w.env.mustUser(authz.Owner, w.CustomerID), store.ApprovalApproved))}
	})
}

// mustImpersonationRequest records an impersonation of userID by actorID
// that approverID decides on, in state approval (pending or approved), its
// subject token not issued; it answers its id.
func (e *env) mustImpersonationRequest(customerID, userID, actorID, approverID, approval string) string {
	e.t.Helper()
	ctx := context.Background()
	now := time.Now()
	id := uuid.NewString()
	e.mustAllowImpersonation(customerID, true)
	if err := e.st.CreateImpersonation(ctx, &store.Impersonation{ID: id, CustomerID: customerID, UserID: userID, ActorID: actorID,
		Reason: "seed", TokenHash: store.PendingTokenHash(id), CreatedAt: now, TokenExpiresAt: now.Add(10 * time.Minute),
		ExpiresAt: now.Add(10 * time.Minute), Approval: store.ApprovalPending, ApproverID: approverID}); err != nil {
		e.t.Fatal(err)
	}
	if approval == store.ApprovalApproved {
		if err := e.st.DecideImpersonation(ctx, id, approverID, store.ApprovalApproved, now); err != nil {
			e.t.Fatal(err)
		}
	}
	return id
}
