package platform

import (
	"encoding/json"
	"time"
)

// Customer is a customer of the platform; its users live in one organization
// at the identity provider. Settings is a JSON object of its own.
type Customer struct {
	ID        string
	Name      string
	OrgID     string
	Settings  json.RawMessage
	CreatedAt time.Time
	UpdatedAt time.Time
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
	ID         string
	CustomerID string
	Name       string
	URL        string
	CreatedAt  time.Time
}

// InstanceConnection is how an instance signs in at the identity provider
// (R2.4-connection). OIDCRedirectURI is empty on legacy records.
type InstanceConnection struct {
	InstanceID      string
	OIDCClientID    string
	OIDCRedirectURI string
	IDPAppID        string
	UpdatedAt       time.Time
	// RequireDPoP: the instance's application gets tokens only with a DPoP
	// proof (sender-constrained, D-dpop).
	RequireDPoP bool
}

// OrgMembership is one organization an e-mail address signs in to, with the
// methods that organization allows (resolve-org).
type OrgMembership struct {
	OrgID           string
	OrgName         string
	CustomerID      string
	Internal        bool // the administrator organization
	UserExists      bool // false when only the e-mail domain matched
	DomainVerified  bool // the organization's customer holds the address's domain verified (D-verified-domains)
	PasswordAllowed bool
	SSOAllowed      bool
	PasskeyAllowed  bool
	PasskeyRequired bool // password sign-in refused
	Providers       []ProviderRef
	Brand           OrgBrand // the customer's branding, zero when none (D-branding)
}

// OrgBrand is what the login gateway shows of a customer's branding once
// the organization is known: its display name, primary colour (#rrggbb)
// and logo (the SHA-256 of its PNG); "" for each the default.
type OrgBrand struct {
	DisplayName  string
	PrimaryColor string
	LogoSHA256   string
}

// ProviderRef names an external identity provider.
type ProviderRef struct {
	ID   string
	Name string
}

// Group is a group of users of one organization (D-groups): a customer's
// group, or an internal group of the administrator organization. Role is the
// role its members hold besides their own ("" binds none); ExternalID is the
// directory's identifier of the group (SCIM externalId), "" when none.
type Group struct {
	ID         string
	OrgID      string
	Name       string
	Role       string
	ExternalID string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}
