package main

import (
	"context"
	"errors"
	"time"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Demo data ids are fixed so the printed log-ins and the docs stay true.
const (
	DemoAdminOrgID   = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e01"
	DemoAcmeOrgID    = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e02"
	DemoGlobexOrgID  = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e03"
	DemoDirOrgID     = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e04" // Initech's own directory, the SSO provider
	DemoInitechOrgID = "8d2f1c3e-4b5a-4c6d-9e7f-0a1b2c3d4e05" // signs in only through that directory
	DemoInitechIDPID = "3a9d6c1b-0000-4000-8000-000000000001"
	demoDirClientID  = "initech-directory"
	DemoPassword     = "demo-Passw0rd!"
)

type demoUser struct {
	id, org, email, name, note string
}

var demoUsers = []demoUser{
	{"2b7e4d10-0000-4000-8000-000000000001", DemoAdminOrgID, "admin@platform.example", "Ada Admin", "internal user (administrator organization)"},
	{"2b7e4d10-0000-4000-8000-000000000002", DemoAcmeOrgID, "alice@acme.example", "Alice Anders", "customer user, Acme Construction"},
	{"2b7e4d10-0000-4000-8000-000000000003", DemoAcmeOrgID, "bob@acme.example", "Bob Brandt", "customer user, Acme Construction"},
	{"2b7e4d10-0000-4000-8000-000000000004", DemoGlobexOrgID, "carol@globex.example", "Carol Chen", "customer user, Globex Engineering (two-step verification forced: enrol at first sign-in)"},
	{"2b7e4d10-0000-4000-8000-000000000005", DemoAcmeOrgID, "dana@partner.example", "Dana Diaz", "customer user in two organizations"},
	{"2b7e4d10-0000-4000-8000-000000000006", DemoGlobexOrgID, "dana@partner.example", "Dana Diaz", ""},
	{"2b7e4d10-0000-4000-8000-000000000007", DemoDirOrgID, "peter@initech.example", "Peter Gibbons", "Initech (SSO only): choose Initech, sign in at the Initech Directory"},
}

// SeedDemo fills an empty database with the demo organizations, users,
// policies and applications. It does nothing when the administrator
// organization exists. With prov (the idp role runs here) it also registers
// Initech's external provider, which seals a secret.
//
// Replicas starting at once on an empty database seed it once: the check and
// the seeding run under one lock, and the provider registration that follows
// takes a registration that another replica made as done.
func SeedDemo(ctx context.Context, st *store.Store, cfg Config, prov *idp.Provider) error {
	hash, err := idp.HashPassword(DemoPassword, cfg.passwordParams())
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	err = st.Locked(ctx, store.LockSeed, func(tx *store.Store) error {
		if _, err := tx.Organization(ctx, cfg.AdminOrgID); err == nil {
			return nil // seeded before
		} else if platform.ErrorCode(err) != platform.ENOTFOUND {
			return err
		}
		for _, o := range []platform.Organization{
			{ID: cfg.AdminOrgID, Name: "Platform Operations"},
			{ID: DemoAcmeOrgID, Name: "Acme Construction"},
			{ID: DemoGlobexOrgID, Name: "Globex Engineering"},
			{ID: DemoDirOrgID, Name: "Initech Directory"},
			{ID: DemoInitechOrgID, Name: "Initech"},
		} {
			o.CreatedAt = now
			if err := tx.CreateOrganization(ctx, &o); err != nil {
				return err
			}
		}
		for _, u := range demoUsers {
			org := u.org
			if org == DemoAdminOrgID {
				org = cfg.AdminOrgID
			}
			if err := tx.CreateUser(ctx, &platform.User{ID: u.id, OrgID: org, Email: u.email, EmailVerified: true,
				Name: u.name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		apps := []platform.Application{
			{AppID: "5c0e8a52-0000-4000-8000-000000000001", ClientID: cfg.ConsoleClientID, Name: "Console portal",
				Kind: platform.AppPublic, RedirectURIs: []string{cfg.ConsoleURL + "/callback"},
				PostLogoutRedirectURIs: []string{cfg.ConsoleURL + "/"}},
			{AppID: "5c0e8a52-0000-4000-8000-000000000002", ClientID: cfg.InstanceClientID, Name: "Demo instance",
				Kind: platform.AppPublic, RedirectURIs: []string{cfg.InstanceURL + "/auth/callback", cfg.InstanceURL + "/3/auth/callback"},
				PostLogoutRedirectURIs: []string{cfg.InstanceURL + "/signed-out"},
				BackchannelLogoutURI:   cfg.InstanceURL + "/auth/backchannel-logout"},
		}
		for _, a := range apps {
			a.CreatedAt = now
			if err := tx.CreateApplication(ctx, &a); err != nil {
				return errors.Join(errors.New("application "+a.ClientID), err)
			}
		}
		acme := platform.DefaultLoginPolicy(DemoAcmeOrgID)
		acme.PasskeyAllowed, acme.UpdatedAt = true, now
		if err := tx.PutLoginPolicy(ctx, acme); err != nil {
			return err
		}
		globex := platform.DefaultLoginPolicy(DemoGlobexOrgID)
		globex.MFAForced, globex.UpdatedAt = true, now
		if err := tx.PutLoginPolicy(ctx, globex); err != nil {
			return err
		}
		if err := seedConsole(ctx, tx, cfg, now); err != nil {
			return err
		}
		return SeedAdminResources(ctx, tx)
	})
	if err != nil || prov == nil {
		return err
	}
	return seedDemoSSO(ctx, st, cfg, prov, now)
}

// seedDemoSSO makes Initech an SSO-only organization whose external provider
// is Initech's directory: an organization on this same identity provider,
// reached as any external OpenID provider would be. The platform trusts the
// directory for Initech's recorded domain, so it creates Initech accounts
// for directory addresses that also exist in the directory's organization
// (D-jit).
func seedDemoSSO(ctx context.Context, st *store.Store, cfg Config, prov *idp.Provider, now time.Time) error {
	if _, err := st.ExternalIDP(ctx, DemoInitechIDPID); err == nil {
		return nil // registered before
	}
	secret := idp.NewSecret()
	err := st.CreateApplication(ctx, &platform.Application{AppID: "5c0e8a52-0000-4000-8000-000000000003",
		ClientID: demoDirClientID, Name: "Initech Directory federation", Kind: platform.AppWeb,
		RedirectURIs: []string{cfg.IssuerURL + idp.PathSSOCallback}, SecretHash: idp.HashSecret(secret), CreatedAt: now})
	if platform.ErrorCode(err) == platform.ECONFLICT {
		return nil // another replica is registering it
	} else if err != nil {
		return err
	}
	if err := prov.RegisterExternalIDP(ctx, &platform.ExternalIDP{ID: DemoInitechIDPID, OrgID: DemoInitechOrgID,
		Name: "Initech Directory", Issuer: cfg.IssuerURL, ClientID: demoDirClientID, LinkTrusted: true,
		Scopes: []string{"openid", "profile", "email", idp.ScopeOrgPrefix + DemoDirOrgID}, CreatedAt: now}, secret, false); err != nil {
		return err
	}
	initech := platform.DefaultLoginPolicy(DemoInitechOrgID)
	initech.PasswordAllowed, initech.SSOAllowed, initech.SSOCreateUsers, initech.UpdatedAt = false, true, true, now
	return st.PutLoginPolicy(ctx, initech)
}

// Demo customers and instance.
const (
	DemoAcmeCustomerID    = "c0ffee00-0000-4000-8000-000000000001"
	DemoGlobexCustomerID  = "c0ffee00-0000-4000-8000-000000000002"
	DemoInitechCustomerID = "c0ffee00-0000-4000-8000-000000000003"
	DemoInstanceID        = "1d57a9c0-0000-4000-8000-000000000001"
)

// demoRoles are the console roles of the demo users.
var demoRoles = []platform.ConsoleUser{
	{UserID: "2b7e4d10-0000-4000-8000-000000000001", Role: "platform_admin"},
	{UserID: "2b7e4d10-0000-4000-8000-000000000002", Role: "owner", CustomerID: DemoAcmeCustomerID},
	{UserID: "2b7e4d10-0000-4000-8000-000000000003", Role: "member", CustomerID: DemoAcmeCustomerID},
	{UserID: "2b7e4d10-0000-4000-8000-000000000004", Role: "admin", CustomerID: DemoGlobexCustomerID},
	{UserID: "2b7e4d10-0000-4000-8000-000000000005", Role: "viewer", CustomerID: DemoAcmeCustomerID},
	{UserID: "2b7e4d10-0000-4000-8000-000000000006", Role: "billing", CustomerID: DemoGlobexCustomerID},
}

// seedConsole adds the console's own data: customers for the customer
// organizations (Initech found by its e-mail domain, for SSO), console roles,
// and the demo instance with its connection to the instance application.
func seedConsole(ctx context.Context, tx *store.Store, cfg Config, now time.Time) error {
	for _, c := range []platform.Customer{
		{ID: DemoAcmeCustomerID, Name: "Acme Construction", OrgID: DemoAcmeOrgID},
		{ID: DemoGlobexCustomerID, Name: "Globex Engineering", OrgID: DemoGlobexOrgID},
		{ID: DemoInitechCustomerID, Name: "Initech", OrgID: DemoInitechOrgID},
	} {
		c.CreatedAt = now
		if err := tx.CreateCustomer(ctx, &c); err != nil {
			return err
		}
	}
	if err := tx.AddCustomerDomain(ctx, "initech.example", DemoInitechCustomerID); err != nil {
		return err
	}
	for _, u := range demoRoles {
		u.CreatedAt = now
		if err := tx.PutConsoleUser(ctx, &u); err != nil {
			return err
		}
	}
	err := tx.CreateInstance(ctx,
		&platform.Instance{ID: DemoInstanceID, CustomerID: DemoAcmeCustomerID, Name: "Acme production", URL: cfg.InstanceURL, CreatedAt: now},
		&platform.InstanceConnection{InstanceID: DemoInstanceID, OIDCClientID: cfg.InstanceClientID,
			OIDCRedirectURI: cfg.InstanceURL + "/auth/callback", IDPAppID: "5c0e8a52-0000-4000-8000-000000000002", UpdatedAt: now})
	if err != nil {
		return err
	}
	// an example, as the demo customers are: what resolve-database-uri
	// answers for the demo instance (never the platform's own database)
	return tx.SetInstanceDatabaseURI(ctx, DemoInstanceID, DemoInstanceDatabaseURI)
}

// DemoInstanceDatabaseURI is the demo instance's database URI: an example
// (the host does not exist), so that resolving it works in the demo.
const DemoInstanceDatabaseURI = "postgres://acme_app@acme-production.db.example:5432/acme_production?sslmode=verify-full"
