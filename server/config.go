package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/scim"
	"github.com/platform/platform/internal/secrets"
)

// Roles a process can run (D-roles).
const (
	RoleAll     = "all"
	RoleIDP     = "idp"
	RoleConsole = "console"
	RoleTenant  = "tenant"
)

// Config is the whole configuration of a process, read from environment
// variables by ConfigFromEnv and checked by Validate. The README lists every
// variable.
type Config struct {
	Role        string // ROLE: all | idp | console | tenant
	DatabaseURL string // DATABASE_URL: postgres://… or sqlite:path
	IssuerURL   string // ISSUER_URL: the identity provider's public URL
	ConsoleURL  string // CONSOLE_URL
	InstanceURL string // INSTANCE_URL: the tenant web app and data API
	IDPAddr     string // IDP_ADDR: listen address of the idp role
	ConsoleAddr string // CONSOLE_ADDR
	TenantAddr  string // TENANT_ADDR
	// METRICS_ADDR: listen address of /metrics, for every role of the
	// process; loopback by default and never a public listener (D-metrics).
	MetricsAddr      string
	AdminOrgID       string // ADMIN_ORG_ID: the administrator organization
	ConsoleClientID  string // CONSOLE_CLIENT_ID: the console portal application
	InstanceClientID string // INSTANCE_CLIENT_ID: the demo instance's application
	// CONSOLE_SERVICE_CLIENT_ID and _SECRET: the console's service client at the
	// identity provider's management API (registers instance applications).
	// ROLE=all derives the secret from the secrets key when it is unset.
	ConsoleServiceClientID     string
	ConsoleServiceClientSecret string
	SigningAlgorithm           string // SIGNING_ALGORITHM: RS256 | ES256
	SecretsKey                 string // SECRETS_KEY: base64 of 32 random bytes; seals secrets at rest
	ResolveRateLimit           int    // RESOLVE_RATE_LIMIT: resolve-org requests per minute per client address (0: off)
	LoginRateLimit             int    // LOGIN_RATE_LIMIT: sign-in form posts per minute per client address (0: off)
	AuthorizeRateLimit         int    // AUTHORIZE_RATE_LIMIT: authorization (and, apart, pushed) requests per minute per client address (0: off)
	SCIMRateLimit              int    // SCIM_RATE_LIMIT: SCIM requests per minute per directory token (0: off)
	LogLevel                   string // LOG_LEVEL: debug | info | warn | error
	LogFormat                  string // LOG_FORMAT: text | json
	SeedDemo                   bool   // SEED_DEMO: seed demo data on first start
	// GRAPHQL_PLAYGROUND: GraphiQL on GET /graphql and introspection
	// (D-playground): on by default for all, off for console and tenant.
	GraphQLPlayground bool
	// GRAPHQL_TRUSTED_DOCUMENTS: the console's /graphql executes only the
	// console app's registered operations (D-trusted-documents): on by
	// default outside ROLE=all unless the playground is on, which sends
	// operations of its own; never with it.
	GraphQLTrustedDocuments bool
	// GRAPHQL_CONSOLE_TOKENS: the tenant role's /graphql (the data
	// subgraph) also accepts the console's access tokens (audience
	// CONSOLE_CLIENT_ID), for a router that forwards the console app's
	// Authorization header to both subgraphs (D-graphql-router). Off by
	// default; the data API's REST routes never accept them.
	GraphQLConsoleTokens bool
	// EGRESS_ALLOW: comma-separated CIDRs (or IPs) outbound requests to
	// customer-configured URLs (webhooks, external SSO, back-channel
	// logouts) may reach although they are internal (D-egress). Once set,
	// even empty, it is the whole list: empty allows nothing.
	EgressAllow string
	// EgressProviderLoopback: EGRESS_ALLOW is unset in ROLE=all, whose demo
	// calls itself on loopback (the Initech directory, its SSO provider, is
	// this process's identity provider, and the demo instance's back-channel
	// logout URI is its tenant role): the identity provider's requests may
	// reach loopback, webhooks may not (D-egress-default).
	EgressProviderLoopback bool
	// DNS_SERVER: host:port of the DNS server the proofs of customers'
	// domains ask (their TXT records, and the address of the HTTPS proof
	// file's host; D-verified-domains). Unset: the system resolver.
	DNSServer string
	// TRUSTED_PROXIES: comma-separated CIDRs (or IPs) of the load balancers
	// and proxies in front of this process; only through them do
	// X-Forwarded-For and Forwarded name the client (D-trusted-proxies).
	TrustedProxies string
	// DB_MAX_CONNS, DB_ACQUIRE_TIMEOUT, DB_STATEMENT_TIMEOUT: the
	// PostgreSQL pool of this process and its waits (D-deadlines).
	DBMaxConns         int
	DBAcquireTimeout   time.Duration
	DBStatementTimeout time.Duration
	// REQUEST_TIMEOUT, UPLOAD_TIMEOUT: the deadline of a request, and of a
	// cx upload; past it the database work stops and the request answers 503.
	RequestTimeout time.Duration
	UploadTimeout  time.Duration
	// DRAIN_DELAY: how long readiness answers 503 after SIGTERM before the
	// listeners close (D-drain); SHUTDOWN_GRACE: how long running requests
	// get after that.
	DrainDelay    time.Duration
	ShutdownGrace time.Duration
	// MAX_CONNECTIONS: open connections each listener admits at once.
	MaxConnections int
	// MEMORY_LIMIT_MIB: the Go runtime's soft memory limit, in MiB
	// (debug.SetMemoryLimit; D-memory-limit). Default for ROLE=idp
	// idpMemoryLimitMiB, else 0 (none); GOMEMLIMIT, Go's own variable,
	// takes precedence when it is set.
	MemoryLimitMiB int
	// UPLOAD_CONCURRENCY: cx uploads one replica runs at once; more wait
	// briefly, then answer 503 with Retry-After (D-admission).
	UploadConcurrency int
	// REFRESH_REUSE_GRACE: a used refresh token presented again this soon by
	// the same public client gets the same successor (D-refresh-grace); 0: off.
	RefreshReuseGrace time.Duration
	// SMTP_URL: the mail server (smtp://user:pass@host:587 with STARTTLS,
	// smtps://user:pass@host:465 with TLS; smtp://localhost:1025?tls=none
	// for a local mail catcher). Unset: nothing is sent; ROLE=all shows
	// messages on its development mailbox (D-mail).
	SMTPURL string
	// MAIL_FROM: the From of every message ("Platform <no-reply@example.com>");
	// required with SMTP_URL outside ROLE=all.
	MailFrom string
	// AUDIT_RETENTION: how long audit events are kept (D-audit-retention);
	// older ones are pruned in the console's background loop. 0 keeps them.
	AuditRetention time.Duration
	// STEP_UP_MAX_AGE: how recent a sign-in with a second factor the
	// console's most dangerous actions (deleting a customer, transferring
	// ownership, resolving a database URI) demand (D-step-up); 0 turns
	// step-up off.
	StepUpMaxAge time.Duration
	// PasswordParams is the argon2id cost of the password hashes the
	// identity provider and the demo seed make. No environment variable
	// sets it: the zero value is idp.DefaultPasswordParams, and only a
	// program that builds its Config (a test whose subject is not the hash)
	// chooses others, which Validate checks.
	PasswordParams idp.PasswordParams
}

// idpMemoryLimitMiB is the identity provider's default soft memory limit
// with slots password verifications in flight (D-memory-limit): the
// process's own heap after start (~24 MiB) and room for the collector's
// pacing, plus each slot's argon2id block (7 MiB) twice over, rounded to
// 8 MiB per slot: 64 MiB on two cores.
func idpMemoryLimitMiB(slots int) int { return 48 + 8*slots }

// minMemoryLimitMiB is the smallest MEMORY_LIMIT_MIB Validate accepts:
// below it the collector would run on nearly every allocation.
const minMemoryLimitMiB = 32

// passwordParams is PasswordParams, or idp.DefaultPasswordParams when unset.
func (c Config) passwordParams() idp.PasswordParams {
	if c.PasswordParams == (idp.PasswordParams{}) {
		return idp.DefaultPasswordParams
	}
	return c.PasswordParams
}

// dbMaxConns is DB_MAX_CONNS's default per role: the all-in-one serves every
// role from one pool; the data API's uploads hold connections longest.
var dbMaxConns = map[string]int{RoleAll: 20, RoleIDP: 10, RoleConsole: 10, RoleTenant: 20}

// loopbackAllow is what EgressProviderLoopback allows the identity
// provider: every loopback address.
const loopbackAllow = "127.0.0.0/8,::1/128"

// devMailFrom is the all-in-one role's MAIL_FROM.
const devMailFrom = "Platform <no-reply@localhost>"

// DefaultConfig is what `go run ./server` uses on a fresh machine.
func DefaultConfig() Config {
	return Config{
		Role:                   RoleAll,
		DatabaseURL:            "sqlite:./data/platform.db",
		IssuerURL:              "http://localhost:8080",
		ConsoleURL:             "http://localhost:8081",
		InstanceURL:            "http://localhost:8082",
		IDPAddr:                ":8080",
		ConsoleAddr:            ":8081",
		TenantAddr:             ":8082",
		MetricsAddr:            "127.0.0.1:9090",
		AdminOrgID:             DemoAdminOrgID,
		ConsoleClientID:        "console-portal",
		InstanceClientID:       "instance-demo",
		ConsoleServiceClientID: "console-service",
		SigningAlgorithm:       "RS256",
		ResolveRateLimit:       30,
		LoginRateLimit:         30,
		AuthorizeRateLimit:     120,
		SCIMRateLimit:          scim.RateLimit,
		LogLevel:               "info",
		LogFormat:              "text",
		SeedDemo:               true,
		GraphQLPlayground:      true,
		EgressProviderLoopback: true,
		DBMaxConns:             dbMaxConns[RoleAll],
		DBAcquireTimeout:       2 * time.Second,
		DBStatementTimeout:     30 * time.Second,
		RequestTimeout:         10 * time.Second,
		UploadTimeout:          2 * time.Minute,
		RefreshReuseGrace:      10 * time.Second,
		UploadConcurrency:      4,
		MaxConnections:         4096,
		ShutdownGrace:          20 * time.Second,
		AuditRetention:         DefaultAuditRetention,
		StepUpMaxAge:           DefaultStepUpMaxAge,
	}
}

// DefaultStepUpMaxAge is STEP_UP_MAX_AGE's default: the console's most
// dangerous actions need a sign-in with a second factor of the last ten
// minutes (D-step-up).
const DefaultStepUpMaxAge = 10 * time.Minute

// DefaultAuditRetention is AUDIT_RETENTION's default: 400 days, a year of
// events and the weeks an audit of that year takes.
const DefaultAuditRetention = 400 * 24 * time.Hour

// MinAuditRetention is the shortest AUDIT_RETENTION (besides 0, keep
// everything): a day, so a SIEM that was away for a night still finds
// what it missed.
const MinAuditRetention = 24 * time.Hour

// parseRetention reads AUDIT_RETENTION: a whole number of days ("400d"),
// a Go duration ("9600h"), or 0 to keep every event.
func parseRetention(v string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > 100*365 {
			return 0, errors.New("bad days")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	if v == "0" {
		return 0, nil
	}
	return time.ParseDuration(v)
}

// ConfigFromEnv starts from DefaultConfig and applies the environment, read
// with lookup (os.LookupEnv: a value and whether the variable is set). A
// variable set empty counts as unset, except EGRESS_ALLOW, whose empty value
// allows nothing. Outside the all-in-one role the defaults lean to
// production: JSON logs, no demo data.
func ConfigFromEnv(lookup func(string) (string, bool)) (Config, error) {
	c := DefaultConfig()
	var problems []string
	getenv := func(name string) string {
		v, _ := lookup(name)
		return v
	}
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	str("ROLE", &c.Role)
	if n, ok := dbMaxConns[c.Role]; ok {
		c.DBMaxConns = n
	}
	if c.Role == RoleIDP {
		c.MemoryLimitMiB = idpMemoryLimitMiB(runtime.GOMAXPROCS(0))
	}
	if c.Role == RoleAll {
		c.MailFrom = devMailFrom
	} else {
		// behind a load balancer: readiness turns 503 for 5 s before the listeners close
		c.DrainDelay = 5 * time.Second
		c.LogFormat, c.SeedDemo, c.GraphQLPlayground, c.EgressProviderLoopback = "json", false, false, false
	}
	str("DATABASE_URL", &c.DatabaseURL)
	str("ISSUER_URL", &c.IssuerURL)
	str("CONSOLE_URL", &c.ConsoleURL)
	str("INSTANCE_URL", &c.InstanceURL)
	str("IDP_ADDR", &c.IDPAddr)
	str("CONSOLE_ADDR", &c.ConsoleAddr)
	str("TENANT_ADDR", &c.TenantAddr)
	str("METRICS_ADDR", &c.MetricsAddr)
	str("ADMIN_ORG_ID", &c.AdminOrgID)
	str("CONSOLE_CLIENT_ID", &c.ConsoleClientID)
	str("INSTANCE_CLIENT_ID", &c.InstanceClientID)
	str("CONSOLE_SERVICE_CLIENT_ID", &c.ConsoleServiceClientID)
	str("CONSOLE_SERVICE_CLIENT_SECRET", &c.ConsoleServiceClientSecret)
	str("SIGNING_ALGORITHM", &c.SigningAlgorithm)
	str("SECRETS_KEY", &c.SecretsKey)
	str("LOG_LEVEL", &c.LogLevel)
	str("LOG_FORMAT", &c.LogFormat)
	if v, ok := lookup("EGRESS_ALLOW"); ok { // set, even empty: the operator's list, for every request
		c.EgressAllow, c.EgressProviderLoopback = strings.TrimSpace(v), false
	}
	str("TRUSTED_PROXIES", &c.TrustedProxies)
	str("DNS_SERVER", &c.DNSServer)
	str("SMTP_URL", &c.SMTPURL)
	str("MAIL_FROM", &c.MailFrom)
	boolean := func(name string, dst *bool) (set bool) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return false
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			problems = append(problems, name+" must be true or false")
		}
		*dst = b
		return true
	}
	boolean("SEED_DEMO", &c.SeedDemo)
	boolean("GRAPHQL_PLAYGROUND", &c.GraphQLPlayground)
	boolean("GRAPHQL_CONSOLE_TOKENS", &c.GraphQLConsoleTokens)
	if !boolean("GRAPHQL_TRUSTED_DOCUMENTS", &c.GraphQLTrustedDocuments) {
		c.GraphQLTrustedDocuments = c.Role != RoleAll && !c.GraphQLPlayground
	}
	for name, dst := range map[string]*time.Duration{"DB_ACQUIRE_TIMEOUT": &c.DBAcquireTimeout,
		"DB_STATEMENT_TIMEOUT": &c.DBStatementTimeout, "REQUEST_TIMEOUT": &c.RequestTimeout, "UPLOAD_TIMEOUT": &c.UploadTimeout,
		"REFRESH_REUSE_GRACE": &c.RefreshReuseGrace, "DRAIN_DELAY": &c.DrainDelay, "SHUTDOWN_GRACE": &c.ShutdownGrace} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || (d == 0 && name != "REFRESH_REUSE_GRACE" && name != "DRAIN_DELAY") {
				problems = append(problems, name+" must be a positive duration such as 5s or 2m")
			}
			*dst = d
		}
	}
	if v := strings.TrimSpace(getenv("STEP_UP_MAX_AGE")); v != "" {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 || (d > 0 && d < time.Minute) || d > 24*time.Hour {
			problems = append(problems, "STEP_UP_MAX_AGE must be 0 (off) or a duration from 1m to 24h such as 10m")
		}
		c.StepUpMaxAge = d
	}
	if v := strings.TrimSpace(getenv("AUDIT_RETENTION")); v != "" {
		d, err := parseRetention(v)
		if err != nil {
			problems = append(problems, "AUDIT_RETENTION must be a number of days such as 400d, a duration such as 9600h, or 0 to keep every event")
		}
		c.AuditRetention = d
	}
	for name, dst := range map[string]*int{"RESOLVE_RATE_LIMIT": &c.ResolveRateLimit, "LOGIN_RATE_LIMIT": &c.LoginRateLimit,
		"AUTHORIZE_RATE_LIMIT": &c.AuthorizeRateLimit, "SCIM_RATE_LIMIT": &c.SCIMRateLimit, "DB_MAX_CONNS": &c.DBMaxConns, "UPLOAD_CONCURRENCY": &c.UploadConcurrency,
		"MAX_CONNECTIONS": &c.MaxConnections, "MEMORY_LIMIT_MIB": &c.MemoryLimitMiB} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				problems = append(problems, name+" must be a whole number, 0 or more")
			}
			*dst = n
		}
	}
	if err := c.Validate(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return c, errors.New(strings.Join(problems, "\n"))
	}
	return c, nil
}

// Validate reports every problem at once, one per line.
func (c Config) Validate() error {
	var p []string
	switch c.Role {
	case RoleAll, RoleIDP, RoleConsole, RoleTenant:
	default:
		p = append(p, fmt.Sprintf("ROLE %q is not one of all, idp, console, tenant", c.Role))
	}
	if _, _, err := c.Database(); err != nil {
		p = append(p, err.Error())
	}
	for _, u := range []struct{ name, v string }{{"ISSUER_URL", c.IssuerURL}, {"CONSOLE_URL", c.ConsoleURL}, {"INSTANCE_URL", c.InstanceURL}} {
		if err := platform.CheckOrigin(fmt.Sprintf("%s %q", u.name, u.v), u.v); err != nil {
			p = append(p, platform.ErrorMessage(err))
		}
	}
	for _, a := range []struct{ name, v string }{{"IDP_ADDR", c.IDPAddr}, {"CONSOLE_ADDR", c.ConsoleAddr}, {"TENANT_ADDR", c.TenantAddr},
		{"METRICS_ADDR", c.MetricsAddr}} {
		if _, port, err := net.SplitHostPort(a.v); err != nil || port == "" {
			p = append(p, fmt.Sprintf("%s %q is not a host:port listen address", a.name, a.v))
		}
	}
	if c.Role == RoleAll && (c.IDPAddr == c.ConsoleAddr || c.IDPAddr == c.TenantAddr || c.ConsoleAddr == c.TenantAddr) {
		p = append(p, "IDP_ADDR, CONSOLE_ADDR and TENANT_ADDR must differ when ROLE=all")
	}
	for _, a := range []struct {
		name, v string
		used    bool
	}{{"IDP_ADDR", c.IDPAddr, c.Role == RoleAll || c.Role == RoleIDP}, {"CONSOLE_ADDR", c.ConsoleAddr, c.Role == RoleAll || c.Role == RoleConsole},
		{"TENANT_ADDR", c.TenantAddr, c.Role == RoleAll || c.Role == RoleTenant}} {
		if a.used && a.v == c.MetricsAddr {
			p = append(p, fmt.Sprintf("METRICS_ADDR must differ from %s: metrics are not served on a public listener", a.name))
		}
	}
	if c.GraphQLTrustedDocuments && c.GraphQLPlayground {
		p = append(p, "GRAPHQL_TRUSTED_DOCUMENTS and GRAPHQL_PLAYGROUND cannot both be true: the playground sends operations the console app does not register")
	}
	if strings.TrimSpace(c.AdminOrgID) == "" {
		p = append(p, "ADMIN_ORG_ID is required")
	}
	if c.ConsoleClientID == "" {
		p = append(p, "CONSOLE_CLIENT_ID is required")
	}
	if c.ConsoleServiceClientID == "" {
		p = append(p, "CONSOLE_SERVICE_CLIENT_ID is required")
	}
	if c.ConsoleServiceClientSecret == "" && c.Role == RoleConsole {
		p = append(p, "CONSOLE_SERVICE_CLIENT_SECRET is required when ROLE=console (the secret of the console's service client at the identity provider)")
	} else if c.ConsoleServiceClientSecret != "" && len(c.ConsoleServiceClientSecret) < 32 {
		p = append(p, "CONSOLE_SERVICE_CLIENT_SECRET must be at least 32 characters")
	}
	if c.SigningAlgorithm != "RS256" && c.SigningAlgorithm != "ES256" {
		p = append(p, fmt.Sprintf("SIGNING_ALGORITHM %q is not RS256 or ES256", c.SigningAlgorithm))
	}
	if c.SecretsKey == "" && c.Role != RoleAll {
		p = append(p, "SECRETS_KEY is required outside ROLE=all (base64 of 32 random bytes: openssl rand -base64 32)")
	} else if c.SecretsKey != "" {
		if k, err := base64.StdEncoding.DecodeString(c.SecretsKey); err != nil || len(k) != 32 {
			p = append(p, "SECRETS_KEY must be the base64 encoding of exactly 32 bytes")
		}
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		p = append(p, fmt.Sprintf("LOG_LEVEL %q is not one of debug, info, warn, error", c.LogLevel))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		p = append(p, fmt.Sprintf("LOG_FORMAT %q is not text or json", c.LogFormat))
	}
	if _, err := egress.ParseAllow(c.EgressAllow); err != nil {
		p = append(p, "EGRESS_ALLOW "+err.Error())
	}
	if c.DNSServer != "" {
		if err := checkHostPort(c.DNSServer); err != nil {
			p = append(p, fmt.Sprintf("DNS_SERVER %q %s", c.DNSServer, err))
		}
	}
	if c.DBMaxConns < 1 {
		p = append(p, "DB_MAX_CONNS must be at least 1")
	}
	if c.MaxConnections < 1 {
		p = append(p, "MAX_CONNECTIONS must be at least 1")
	}
	if c.MemoryLimitMiB != 0 && c.MemoryLimitMiB < minMemoryLimitMiB {
		p = append(p, fmt.Sprintf("MEMORY_LIMIT_MIB must be 0 (no limit) or at least %d", minMemoryLimitMiB))
	}
	if c.AuditRetention < 0 || (c.AuditRetention > 0 && c.AuditRetention < MinAuditRetention) {
		p = append(p, "AUDIT_RETENTION must be 0 (keep every event) or at least a day (1d)")
	}
	if c.UploadConcurrency < 1 {
		p = append(p, "UPLOAD_CONCURRENCY must be at least 1")
	}
	if _, err := httpapi.ParsePrefixes(c.TrustedProxies); err != nil {
		p = append(p, "TRUSTED_PROXIES: "+strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if c.SMTPURL != "" {
		if _, err := mail.ParseSMTPURL(c.SMTPURL); err != nil {
			p = append(p, "SMTP_URL "+err.Error())
		}
		if c.MailFrom == "" {
			p = append(p, "MAIL_FROM is required with SMTP_URL (the From of every message, such as Platform <no-reply@example.com>)")
		}
	}
	if c.MailFrom != "" {
		if _, err := netmail.ParseAddress(c.MailFrom); err != nil {
			p = append(p, fmt.Sprintf("MAIL_FROM %q is not an e-mail address (Name <address@example.com>)", c.MailFrom))
		}
	}
	if pp := c.PasswordParams; pp != (idp.PasswordParams{}) &&
		(pp.Time < 1 || pp.Threads < 1 || pp.Memory < 8*uint32(pp.Threads) || pp.KeyLen < 16 || pp.KeyLen > 64 || pp.SaltLen < 16) {
		p = append(p, fmt.Sprintf("password parameters %+v are not usable argon2id parameters (time, threads ≥ 1, memory ≥ 8 KiB per thread, key 16 to 64 bytes, salt ≥ 16 bytes)", pp))
	}
	if len(p) > 0 {
		return errors.New(strings.Join(p, "\n"))
	}
	return nil
}

// Mailer is the sender of SMTP_URL, nil when it is unset. Call it after Validate.
func (c Config) Mailer() *mail.SMTP {
	if c.SMTPURL == "" {
		return nil
	}
	s, _ := mail.ParseSMTPURL(c.SMTPURL)
	return s
}

// Egress is the policy of the console's outbound requests to addresses
// customers configure (webhook registration and delivery): EGRESS_ALLOW's
// networks (none when it is unset), the package's default body cap and
// timeout. Call it after Validate.
func (c Config) Egress() egress.Policy {
	allow, _ := egress.ParseAllow(c.EgressAllow)
	return egress.Policy{Allow: allow}
}

// DomainProver is how customers' domain claims are proven
// (D-verified-domains): TXT records and the proof file's host asked of
// DNS_SERVER (the system resolver when unset), the file fetched through
// Egress. Call it after Validate.
func (c Config) DomainProver() domains.Prover {
	r := domains.NewResolver(c.DNSServer)
	p := c.Egress()
	p.Resolver = r
	return domains.Prover{Resolver: r, Egress: p}
}

// checkHostPort checks a host:port: a host name or IP address and a port
// from 1 to 65535.
func checkHostPort(v string) error {
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return errors.New("must be host:port, such as 10.0.0.2:53 or [2001:db8::53]:53")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return errors.New("must name a port from 1 to 65535")
	}
	if _, err := netip.ParseAddr(host); err != nil && (host == "" || strings.ContainsAny(host, " /@")) {
		return errors.New("must name a host")
	}
	return nil
}

// ProviderEgress is the policy of the identity provider's outbound requests
// to configured URLs (external SSO, back-channel logouts): Egress, and
// loopback too with EgressProviderLoopback. Call it after Validate.
func (c Config) ProviderEgress() egress.Policy {
	p := c.Egress()
	if c.EgressProviderLoopback {
		loop, _ := egress.ParseAllow(loopbackAllow)
		p.Allow = append(p.Allow, loop...)
	}
	return p
}

// describeEgress says in a log line what a policy lets through beyond
// public addresses.
func describeEgress(p egress.Policy) string {
	if len(p.Allow) == 0 {
		return "public addresses only"
	}
	nets := make([]string, len(p.Allow))
	for i, a := range p.Allow {
		nets[i] = a.String()
	}
	return "public addresses and " + strings.Join(nets, ", ")
}

// logEgress logs the egress policies in force for the roles that run, and
// where they come from.
func (c Config) logEgress(runs func(role string) bool) {
	from := "EGRESS_ALLOW"
	if c.EgressProviderLoopback {
		from = "default of ROLE=all (EGRESS_ALLOW unset): loopback for the identity provider's demo only"
	} else if c.EgressAllow == "" {
		from = "EGRESS_ALLOW unset or empty: no internal address"
	}
	attrs := []any{"from", from}
	if runs(RoleConsole) {
		attrs = append(attrs, "webhooks", describeEgress(c.Egress()))
	}
	if runs(RoleIDP) {
		attrs = append(attrs, "identity_provider", describeEgress(c.ProviderEgress()))
	}
	slog.Info("egress policy", attrs...)
}

// Proxies are the trusted proxies of TRUSTED_PROXIES. Call it after Validate.
func (c Config) Proxies() []netip.Prefix {
	p, _ := httpapi.ParsePrefixes(c.TrustedProxies)
	return p
}

// Database returns the driver ("postgres" or "sqlite") and its data source.
func (c Config) Database() (driver, dsn string, err error) {
	switch {
	case strings.HasPrefix(c.DatabaseURL, "postgres://"), strings.HasPrefix(c.DatabaseURL, "postgresql://"):
		return "postgres", c.DatabaseURL, nil
	case strings.HasPrefix(c.DatabaseURL, "sqlite:"):
		path := strings.TrimPrefix(c.DatabaseURL, "sqlite:")
		if path == "" {
			return "", "", errors.New("DATABASE_URL sqlite: needs a file path (sqlite:./data/platform.db) or sqlite::memory:")
		}
		return "sqlite", path, nil
	default:
		return "", "", fmt.Errorf("DATABASE_URL must start with postgres:// or sqlite: (got %q)", redactURL(c.DatabaseURL))
	}
}

// redactURL hides a password in a database URL for messages and logs.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// secretsKey returns the key that seals secrets at rest. The all-in-one role
// without SECRETS_KEY keeps a generated key in ./data/secrets.key so that a
// restart can still open what it sealed.
func (c Config) secretsKey() ([]byte, error) {
	if c.SecretsKey != "" {
		return base64.StdEncoding.DecodeString(c.SecretsKey)
	}
	const path = "data/secrets.key"
	if b, err := os.ReadFile(path); err == nil {
		k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(k) != 32 {
			return nil, fmt.Errorf("%s is not a base64 32-byte key", path)
		}
		return k, nil
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	if err := os.MkdirAll("data", 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(base64.StdEncoding.EncodeToString(k)+"\n"), 0o600); err != nil {
		return nil, err
	}
	slog.Warn("generated a secrets key for this development database; set SECRETS_KEY in production", "file", path)
	return k, nil
}

// sealer is the Sealer of the secrets key (secretsKey).
func (c Config) sealer() (*secrets.Sealer, error) {
	key, err := c.secretsKey()
	if err != nil {
		return nil, err
	}
	return secrets.New(key)
}
