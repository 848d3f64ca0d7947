package model

// Me is the caller (D-me-permissions); its email and name are resolved
// only when asked for, with one lookup.
type Me struct {
	ID          string         `json:"id"`
	UserID      string         `json:"userId"`
	Role        string         `json:"role"`
	CustomerID  *string        `json:"customerId,omitempty"`
	Scope       *Scope         `json:"scope"`
	Permissions []Permission   `json:"permissions"`
	Writable    []Permission   `json:"writable"`
	Actions     []*ActionGrant `json:"actions"`
}
