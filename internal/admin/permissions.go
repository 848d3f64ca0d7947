package admin

import (
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// Permissions is the body of GET /api/v1/me/permissions (D-me-permissions).
type Permissions struct {
	UserID     string        `json:"userId"`
	Role       authz.Role    `json:"role"`
	CustomerID *string       `json:"customerId"`
	Scope      ScopeView     `json:"scope"`
	Actions    []ActionGrant `json:"actions"`
}

// ScopeView is a resolved scope as the API shows it; an empty source means
// unscoped (R2.6-source).
type ScopeView struct {
	Source      string     `json:"source"`
	Mode        authz.Mode `json:"mode"`
	CustomerIDs []string   `json:"customerIds"`
	InstanceIDs []string   `json:"instanceIds"`
}

// ActionGrant is one action the caller holds and at which access.
type ActionGrant struct {
	Action authz.Action `json:"action"`
	Access authz.Access `json:"access"`
}

// Permissions returns what the caller may do: its role, customer, scope and
// every action it holds with its access (D-me-permissions).
func (s *me) Permissions(c *access.Caller) *Permissions {
	p := &Permissions{UserID: c.UserID, Role: c.Role,
		Scope: ScopeView{Source: c.Scope.Source, Mode: c.Scope.Mode, CustomerIDs: nonNil(c.Scope.CustomerIDs),
			InstanceIDs: nonNil(c.Scope.InstanceIDs)}}
	p.CustomerID = orNull(c.CustomerID)
	cat := s.access.Catalog()
	for _, act := range cat.Allowed(c.Role) {
		p.Actions = append(p.Actions, ActionGrant{Action: act, Access: cat.Access(c.Role, act)})
	}
	return p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
