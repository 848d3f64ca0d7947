package platform

import "time"

// Customer is a customer of the platform; its users live in one organization
// at the identity provider.
type Customer struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	OrgID     string    `json:"orgId"`
	CreatedAt time.Time `json:"createdAt"`
}

// ConsoleUser is a user's role in the console. CustomerID is empty for
// internal roles and names the customer for portal roles.
type ConsoleUser struct {
	UserID     string
	Role       string
	CustomerID string
	CreatedAt  time.Time
}

// Instance is a deployment of the tenant application for a customer.
type Instance struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customerId"`
	Name       string    `json:"name"`
	URL        string    `json:"url"`
	CreatedAt  time.Time `json:"createdAt"`
}

// InstanceConnection is how an instance signs in at the identity provider
// (SPEC 2.4). OIDCRedirectURI is empty on legacy records.
type InstanceConnection struct {
	InstanceID      string    `json:"instanceId"`
	OIDCClientID    string    `json:"oidcClientId"`
	OIDCRedirectURI string    `json:"oidcRedirectUri"`
	IDPAppID        string    `json:"idpAppId"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// OrgMembership is one organization an e-mail address signs in to, with the
// methods that organization allows (resolve-org).
type OrgMembership struct {
	OrgID           string
	OrgName         string
	CustomerID      string
	Internal        bool // the administrator organization
	UserExists      bool // false when only the e-mail domain matched
	PasswordAllowed bool
	SSOAllowed      bool
	Providers       []ProviderRef
}

// ProviderRef names an external identity provider.
type ProviderRef struct {
	ID   string
	Name string
}
