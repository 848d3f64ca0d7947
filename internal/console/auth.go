package console

import (
	"context"
	"net/http"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// MeResponse is the body of GET /api/v1/auth/me.
type MeResponse struct {
	Role       string  `json:"role"`
	CustomerID *string `json:"customerId"`
	UserID     string  `json:"userId"`
	Email      string  `json:"email"`
	Name       string  `json:"name"`
	Customer   string  `json:"customerName,omitempty"`
	// Actor is who acts as the user (an impersonation's support user, a
	// delegation's service account); null when the user acts itself
	// (D-impersonation).
	Actor *MeActor `json:"actor"`
}

// MeActor is who acts for the user of /api/v1/auth/me.
type MeActor struct {
	UserID string `json:"userId"`
	Email  string `json:"email"`
	// ImpersonationID names the impersonation (the grant of the token),
	// which DELETE /api/v1/me/impersonation ends; "" for a delegation.
	ImpersonationID string `json:"impersonationId"`
	// ExpiresAt is when the impersonation ends by itself.
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// Me describes the caller from the console's own data (R4.1-me): its
// console role, or the default portal role for a user of a customer
// organization (access.Load decides both; roles never come from the token,
// R5.7-claims).
func (c *Console) Me(ctx context.Context, caller *access.Caller) (*MeResponse, error) {
	u, err := c.store.User(ctx, caller.UserID)
	if err != nil {
		return nil, err
	}
	me := &MeResponse{Role: caller.Role.String(), UserID: u.ID, Email: u.Email, Name: u.Name}
	if caller.CustomerID != "" {
		id := caller.CustomerID
		me.CustomerID = &id
		if cust, err := c.store.Customer(ctx, id); err == nil {
			me.Customer = cust.Name
		}
	}
	if caller.Actor != "" {
		me.Actor = &MeActor{UserID: caller.Actor}
		if a, err := c.store.User(ctx, caller.Actor); err == nil {
			me.Actor.Email = a.Email
		}
		if m, err := c.store.Impersonation(ctx, caller.GrantID); err == nil && m.ActorID == caller.Actor {
			me.Actor.ImpersonationID, me.Actor.ExpiresAt = m.ID, &m.ExpiresAt
		}
	}
	return me, nil
}

func (c *Console) handleMe(w http.ResponseWriter, r *http.Request) {
	me, err := c.Me(r.Context(), access.MustCaller(r.Context()))
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, me)
}

// POST /api/v1/auth/logout ends the grant of the presented access token (its
// tokens, on every replica): the app calls it when the user signs out, before
// it ends the provider's session, so a copy of the token taken before stops
// working at once instead of living to its expiry. 204.
func (c *Console) handleLogout(w http.ResponseWriter, r *http.Request) {
	grant := access.MustCaller(r.Context()).GrantID
	if grant == "" { // the verifier refuses such a token; never revoke "no grant"
		httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "the access token names no grant"))
		return
	}
	if err := c.store.RevokeFamily(r.Context(), grant); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
