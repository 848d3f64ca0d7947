package admin

import (
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// Service holds the administration rules the REST routes and the GraphQL
// resolvers share. It is composed of one part per noun, each in its own
// file(s) and sharing only the core (core.go: the store, the decisions, the
// clock, the audited write); their methods are Service's. Every method
// takes the caller, checks its permission through access.Service.Check
// itself on the method's declared Operation (D-access-path: the services
// check again, so no transport can skip it), records a successful write in
// the audit log in the write's own transaction (audited) and returns coded
// errors: EINVALID for bad input, ENOTFOUND or EFORBIDDEN for a refused or
// missing resource (the status the scope mode asks for), ECONFLICT for a
// clash with stored data. Lists are filtered by the caller's scope in SQL
// and never answer 403 for scope; a role that does not hold the list's
// action gets EFORBIDDEN.
type Service struct {
	me
	logs
	customers
	tenants
	instances
	users
	impersonations
	internalUsers
	grants
	serviceAccounts
	identityProviders
	webhooks
	billing
	catalog
	releases
	environment
	systemWorkers
	userAttributes
	discrepancies
	scimTokens
	registrationTokens
	clientMetadata
	scimUsers
	scimGroups
	groups
	customerDomains
	securityPolicies
	brandings
	overview
}

// config is what the options set.
type config struct {
	apps       Apps
	vault      Vault
	now        func() time.Time
	sealer     *secrets.Sealer
	egress     egress.Policy
	adminOrgID string
	issuer     string
	prover     domains.Prover
}

// Option configures NewService.
type Option func(*config)

// WithApps sets how instances register their application at the identity
// provider (R2.5-instance-app). Without it, creating an instance fails.
func WithApps(apps Apps) Option { return func(c *config) { c.apps = apps } }

// WithVault sets where instance database URIs are resolved.
func WithVault(v Vault) Option { return func(c *config) { c.vault = v } }

// WithAdminOrg sets the administrator organization internal users are created in.
func WithAdminOrg(orgID string) Option { return func(c *config) { c.adminOrgID = orgID } }

// WithIssuer sets the identity provider's public URL, where the links of
// invitations open (mail.PathInvitation).
func WithIssuer(url string) Option { return func(c *config) { c.issuer = url } }

// WithClock sets the service's clock (tests).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithSealer sets the sealer of secrets kept at rest (identity-provider
// client secrets, webhook signing secrets, secret environment variables).
// Without it a key made at start is used, which a restart loses: fine for
// tests, wrong for production (server.Main always sets one).
func WithSealer(sl *secrets.Sealer) Option { return func(c *config) { c.sealer = sl } }

// WithEgress sets the outbound policy a webhook URL or an identity
// provider's issuer is checked against when it is set (D-egress); the
// default, the zero Policy, refuses every internal address. Deliveries check
// each connection again.
func WithEgress(p egress.Policy) Option { return func(c *config) { c.egress = p } }

// WithDomainProver sets how customers' domain claims are proven
// (D-verified-domains): the DNS server of TXT lookups and the egress policy
// of the well-known file. Without it, the system resolver and the zero
// egress Policy.
func WithDomainProver(p domains.Prover) Option { return func(c *config) { c.prover = p } }

// NewService returns the administration service.
func NewService(st *store.Store, acc *access.Service, opts ...Option) *Service {
	cfg := config{now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.apps == nil {
		cfg.apps = noApps{}
	}
	if cfg.vault == nil {
		cfg.vault = storeVault{st}
	}
	co := &core{store: st, access: acc, now: cfg.now, sealer: cfg.sealer}
	acct := &accounts{core: co, adminOrgID: cfg.adminOrgID, issuer: cfg.issuer}
	dirs := &directories{core: co, adminOrgID: cfg.adminOrgID}
	return &Service{
		me:                 me{co},
		logs:               logs{co},
		customers:          customers{co},
		tenants:            tenants{co},
		instances:          instances{core: co, apps: cfg.apps, vault: cfg.vault},
		users:              users{acct},
		impersonations:     impersonations{co},
		internalUsers:      internalUsers{acct},
		grants:             grants{co},
		serviceAccounts:    serviceAccounts{core: co, adminOrgID: cfg.adminOrgID},
		identityProviders:  identityProviders{core: co, egress: cfg.egress},
		webhooks:           webhooks{core: co, egress: cfg.egress},
		billing:            billing{co},
		catalog:            catalog{co},
		releases:           releases{co},
		environment:        environment{co},
		systemWorkers:      systemWorkers{co},
		userAttributes:     userAttributes{co},
		discrepancies:      discrepancies{co},
		scimTokens:         scimTokens{co},
		scimUsers:          scimUsers{u: users{acct}, dirs: dirs},
		scimGroups:         scimGroups{dirs},
		groups:             groups{core: co, adminOrgID: cfg.adminOrgID},
		customerDomains:    customerDomains{core: co, prover: cfg.prover},
		securityPolicies:   securityPolicies{co},
		brandings:          brandings{core: co, issuer: cfg.issuer},
		overview:           overview{co},
		registrationTokens: registrationTokens{co},
		clientMetadata:     clientMetadata{co},
	}
}
