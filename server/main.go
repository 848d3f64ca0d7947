// Command server runs the platform: the identity provider, the console and the
// tenant backend, all in one process (ROLE=all, the default) or one role each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"golang.org/x/net/netutil"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/admin/adminhttp"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/console"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/scim"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/postgres"
	"github.com/platform/platform/internal/store/sqlite"
	"github.com/platform/platform/internal/tenant"
	"github.com/platform/platform/internal/web"
	"github.com/platform/platform/internal/webhook"
	"github.com/platform/platform/migrations"
)

func main() {
	role := flag.String("role", "", "role to run: all, idp, console or tenant (overrides ROLE)")
	flag.Parse()
	lookup := os.LookupEnv
	if *role != "" {
		lookup = func(k string) (string, bool) {
			if k == "ROLE" {
				return *role, true
			}
			return os.LookupEnv(k)
		}
	}
	cfg, err := ConfigFromEnv(lookup)
	if err != nil {
		fmt.Fprintf(os.Stderr, "configuration problems:\n%s\n", indent(err.Error()))
		os.Exit(2)
	}
	slog.SetDefault(newLogger(os.Stderr, cfg))
	applyMemoryLimit(cfg, os.LookupEnv)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := NewMain(cfg)
	if err := m.Run(ctx); err != nil {
		slog.Error("start-up failed", "err", err)
		m.Close()
		os.Exit(1)
	}
	m.PrintBanner(os.Stdout)
	<-ctx.Done()
	stop() // a second signal now ends the drain early, a third the default way
	second := make(chan struct{})
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		<-sig
		close(second)
		signal.Stop(sig)
	}()
	m.Drain(cfg.DrainDelay, second)
	slog.Info("shutting down", "grace", cfg.ShutdownGrace)
	if err := m.Close(); err != nil {
		slog.Error("shutdown", "err", err)
		os.Exit(1)
	}
}

// applyMemoryLimit sets the runtime's soft memory limit to
// MEMORY_LIMIT_MIB unless GOMEMLIMIT, which the runtime read at start, is
// set (D-memory-limit). It returns the limit it set, 0 for none.
func applyMemoryLimit(cfg Config, lookup func(string) (string, bool)) int64 {
	if _, set := lookup("GOMEMLIMIT"); set || cfg.MemoryLimitMiB <= 0 {
		return 0
	}
	limit := int64(cfg.MemoryLimitMiB) << 20
	debug.SetMemoryLimit(limit)
	return limit
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

func newLogger(w io.Writer, cfg Config) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: lvl}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// Main is one running process: its store, its roles and their HTTP servers.
type Main struct {
	Config Config
	Store  *store.Store
	IDP    *idp.Provider
	// Mail is the outbox's delivery worker (tests run it at once with RunOnce).
	Mail *mail.Worker
	// Webhooks is the console's webhook dispatcher (tests run it at once
	// with RunOnce).
	Webhooks *webhook.Dispatcher
	// MailSender, when set before Run, is used instead of SMTP_URL's sender
	// (tests trust their own server's certificate with it).
	MailSender mail.Sender

	// Listeners, when set before Run, are used instead of listening on the
	// configured addresses (tests pass listeners on port 0), by role and
	// ListenerMetrics.
	Listeners map[string]net.Listener
	// WrapRole, when set before Run, wraps each role's handler (tests observe
	// what a role receives).
	WrapRole func(role string, h http.Handler) http.Handler

	registry *prometheus.Registry
	servers  []*http.Server
	cancel   context.CancelFunc
	done     chan struct{}
	draining atomic.Bool
}

// NewMain returns a Main for cfg.
func NewMain(cfg Config) *Main {
	return &Main{Config: cfg, Listeners: map[string]net.Listener{}, done: make(chan struct{})}
}

func (m *Main) runs(role string) bool { return m.Config.Role == RoleAll || m.Config.Role == role }

// Run opens and migrates the database, seeds demo data when configured, builds
// the roles and starts serving. It returns once every listener is open.
func (m *Main) Run(ctx context.Context) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	st, err := OpenStore(ctx, m.Config)
	if err != nil {
		return err
	}
	m.Store = st
	applied, err := st.Migrate(ctx, migrations.FS)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		slog.Info("database migrated", "dialect", st.Dialect(), "applied", applied)
	}
	if err := st.AlignAuditStream(ctx); err != nil {
		return fmt.Errorf("audit stream: %w", err)
	}
	m.Config.logEgress(m.runs)
	m.registry = prometheus.NewRegistry()
	m.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := httpapi.NewMetrics(m.registry)

	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m.cancel = cancel
	handlers := map[string]http.Handler{}
	if m.runs(RoleIDP) {
		key, err := m.Config.secretsKey()
		if err != nil {
			return err
		}
		m.IDP, err = idp.New(ctx, idp.Config{Issuer: m.Config.IssuerURL, AdminOrgID: m.Config.AdminOrgID,
			SigningAlgorithm: m.Config.SigningAlgorithm, SecretsKey: key, LoginRateLimit: m.Config.LoginRateLimit,
			AuthorizeRateLimit: m.Config.AuthorizeRateLimit, Egress: m.Config.ProviderEgress(),
			RefreshReuseGrace: m.Config.RefreshReuseGrace, ConsoleURL: m.Config.ConsoleURL,
			ConsoleClientID: m.Config.ConsoleClientID, Password: m.Config.passwordParams()}, st)
		if err != nil {
			return err
		}
		go m.IDP.Maintain(bg, time.Minute)
		go m.IDP.DeliverLogouts(bg)
	}
	if m.Config.SeedDemo {
		if err := SeedDemo(ctx, st, m.Config, m.IDP); err != nil {
			return fmt.Errorf("seed demo data: %w", err)
		}
		if err := SeedDemoData(ctx, st); err != nil {
			return fmt.Errorf("seed demo tenant data: %w", err)
		}
	}
	if m.IDP != nil {
		handlers[RoleIDP] = m.IDP.Handler()
	}
	if err := m.startMail(bg, handlers); err != nil {
		return err
	}
	var acc *access.Service
	if m.runs(RoleConsole) || m.runs(RoleTenant) {
		if acc, err = access.New(ctx, st); err != nil {
			return fmt.Errorf("permission catalog: %w", err)
		}
		acc.SetStepUp(access.StepUp{MaxAge: m.Config.StepUpMaxAge})
	}
	// The data service of the tenant role; ROLE=all serves its subgraph in
	// the console's /graphql too, which is then the whole graph
	// (D-graphql-subgraphs).
	var dataSvc *data.Service
	if m.runs(RoleTenant) {
		dataSvc = data.New(st, acc)
		go dataSvc.Maintain(bg, time.Hour)
	}
	if m.runs(RoleConsole) {
		key, err := m.Config.secretsKey()
		if err != nil {
			return err
		}
		proofs := access.NewDPoPProofs(m.Config.ConsoleURL, key, st)
		con, err := console.New(console.Config{Issuer: m.Config.IssuerURL, ConsoleURL: m.Config.ConsoleURL,
			ClientID: m.Config.ConsoleClientID, AdminOrgID: m.Config.AdminOrgID, ResolveLimit: m.Config.ResolveRateLimit,
			DPoP: proofs}, st)
		if err != nil {
			return err
		}
		go con.Maintain(bg, time.Minute)
		if m.Config.AuditRetention > 0 {
			go audit.Retain(bg, st, m.Config.AuditRetention, time.Minute)
		}
		svcSecret, err := m.Config.consoleServiceSecret()
		if err != nil {
			return err
		}
		if m.Config.SeedDemo {
			if err := ensureServiceClient(ctx, st, m.Config.ConsoleServiceClientID, svcSecret); err != nil {
				return fmt.Errorf("console service client: %w", err)
			}
		}
		sealer, err := m.Config.sealer()
		if err != nil {
			return err
		}
		// Webhook URLs are checked against the egress policy when they are
		// set and at every delivery (D-egress).
		egressPolicy := m.Config.Egress()
		adm := admin.NewService(st, acc, admin.WithAdminOrg(m.Config.AdminOrgID), admin.WithSealer(sealer),
			admin.WithApps(admin.NewHTTPApps(m.Config.IssuerURL, m.Config.ConsoleServiceClientID, svcSecret)),
			admin.WithEgress(egressPolicy), admin.WithIssuer(m.Config.IssuerURL), admin.WithDomainProver(m.Config.DomainProver()))
		// verified domains whose proof went missing lose their status after the grace (D-verified-domains)
		go background.Every(bg, "domain re-verification", 10*time.Minute, time.Minute, func(ctx context.Context) error {
			_, err := adm.ReverifyDomains(ctx)
			return err
		})
		m.Webhooks = &webhook.Dispatcher{Store: st, Sealer: sealer, Egress: egressPolicy}
		go m.Webhooks.Run(bg, 10*time.Second)
		// DPoP-bound tokens with their proofs, or bearer tokens (D-dpop)
		consoleAuth := acc.Require(access.DPoP(proofs, con.Verifier()), access.Bearer(con.Verifier()))
		cr := chi.NewRouter()
		docs, err := consoleDocuments()
		if err != nil {
			return err
		}
		gh := graph.NewHandler(graph.Config{Resolver: graph.Resolver{Access: acc, Admin: adm, Data: dataSvc},
			Auth: consoleAuth, Playground: m.Config.GraphQLPlayground, Documents: docs, TrustedDocuments: m.Config.GraphQLTrustedDocuments})
		cr.Handle("/graphql", gh)
		cr.Handle("/graphql/assets/*", gh) // the playground's files

		scim.New(adm, st, m.Config.SCIMRateLimit, m.Config.ConsoleURL).Mount(cr) // {console_url}/scim/v2, a directory's token (D-scim)
		cr.Mount("/", con.Handler(func(r chi.Router) { adminhttp.New(adm, acc).Mount(r, consoleAuth) }))
		handlers[RoleConsole] = cr
	}
	if m.runs(RoleTenant) {
		key, err := m.Config.secretsKey()
		if err != nil {
			return err
		}
		ten, err := tenant.New(tenant.Config{Issuer: m.Config.IssuerURL, ConsoleURL: m.Config.ConsoleURL,
			InstanceURL: m.Config.InstanceURL, ClientID: m.Config.InstanceClientID, SecretsKey: key}, st)
		if err != nil {
			return err
		}
		go ten.Maintain(bg, time.Minute)
		r := chi.NewRouter()
		ten.Routes(r)
		proofs := access.NewDPoPProofs(m.Config.InstanceURL, key, st)
		tenantAuth := acc.Require(ten.Authenticator(), access.DPoP(proofs, ten.Verifier()), access.Bearer(ten.Verifier()))
		data.NewHandler(dataSvc, m.Config.InstanceURL, m.Config.UploadConcurrency).Mount(r, tenantAuth)
		graphAuth := tenantAuth
		if m.Config.GraphQLConsoleTokens {
			// a router forwards the console app's token to both subgraphs (D-graphql-router)
			graphAuth = acc.Require(ten.Authenticator(), access.DPoP(proofs, ten.Verifier(), ten.ConsoleVerifier(m.Config.ConsoleClientID)),
				access.Bearer(ten.Verifier(), ten.ConsoleVerifier(m.Config.ConsoleClientID)))
		}
		gh := graph.NewHandler(graph.Config{Resolver: graph.Resolver{Access: acc, Data: dataSvc},
			Auth: graphAuth, Playground: m.Config.GraphQLPlayground})
		r.Handle("/graphql", gh)
		r.Handle("/graphql/assets/*", gh) // the playground's files

		handlers[RoleTenant] = r
	}
	for _, role := range []string{RoleIDP, RoleConsole, RoleTenant} {
		h, ok := handlers[role]
		if !ok {
			continue
		}
		if m.WrapRole != nil {
			h = m.WrapRole(role, h)
		}
		if err := m.serve(role, m.router(role, h, metrics)); err != nil {
			return err
		}
	}
	return m.serve(ListenerMetrics, httpapi.MetricsHandler(m.registry))
}

// consoleDocuments are the console app's registered operations, embedded
// with its build (D-trusted-documents).
func consoleDocuments() (graph.Documents, error) {
	m, err := web.ConsoleDocuments()
	if err != nil {
		return nil, fmt.Errorf("the console app's trusted documents: %w", err)
	}
	return graph.NewDocuments(m)
}

// ListenerMetrics names the listener of /metrics in Main.Listeners: its own,
// on METRICS_ADDR, never a public one (D-metrics).
const ListenerMetrics = "metrics"

func (m *Main) router(role string, h http.Handler, metrics *httpapi.Metrics) http.Handler {
	_, public := m.listener(role)
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID, httpapi.ClientAddress(m.Config.Proxies()), metrics.Observe(role),
		httpapi.Deadline(m.requestTimeout), httpapi.SecurityHeaders(strings.HasPrefix(public, "https://")))
	httpapi.MountOps(r, m.ready)
	if role != RoleIDP {
		// The APIs' answers and pages, gzip-compressed for clients that
		// accept it (D-compression); the provider's answers, tokens among
		// them, are not.
		h = httpapi.Compress()(h)
	}
	r.Mount("/", h)
	return r
}

// requestTimeout is a request's deadline: UPLOAD_TIMEOUT for cx uploads,
// REQUEST_TIMEOUT for everything else.
func (m *Main) requestTimeout(r *http.Request) time.Duration {
	if r.Method == http.MethodPost && r.URL.Path == "/api/v1/cx/upload" {
		return m.Config.UploadTimeout
	}
	return m.Config.RequestTimeout
}

// listener is the address the listener name (a role, or ListenerMetrics)
// listens on and its public URL, where browsers reach it (https when TLS
// ends here or at a proxy in front; none for the metrics listener).
func (m *Main) listener(name string) (addr, publicURL string) {
	switch name {
	case RoleIDP:
		return m.Config.IDPAddr, m.Config.IssuerURL
	case RoleConsole:
		return m.Config.ConsoleAddr, m.Config.ConsoleURL
	case ListenerMetrics:
		return m.Config.MetricsAddr, ""
	default:
		return m.Config.TenantAddr, m.Config.InstanceURL
	}
}

func (m *Main) serve(role string, h http.Handler) error {
	ln := m.Listeners[role]
	if ln == nil {
		var err error
		addr, _ := m.listener(role)
		if ln, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("%s: %w", role, err)
		}
		m.Listeners[role] = ln
	}
	// Each request's read and write deadlines are its REQUEST_TIMEOUT or
	// UPLOAD_TIMEOUT (httpapi.Deadline); the listener admits at most
	// MAX_CONNECTIONS connections at once, the rest wait in the backlog.
	ln = netutil.LimitListener(ln, m.Config.MaxConnections)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	m.servers = append(m.servers, srv)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("server stopped", "role", role, "err", err)
		}
	}()
	slog.Info("listening", "role", role, "addr", ln.Addr().String())
	return nil
}

// ready is the readiness of /readyz: not while draining, nor while the
// database is unreachable or its pool stays busy.
func (m *Main) ready(ctx context.Context) error {
	if m.draining.Load() {
		return httpapi.NotReady("draining")
	}
	err := m.Store.Ping(ctx)
	switch {
	case err == nil:
		return nil
	case postgres.IsPoolBusy(err):
		return httpapi.NotReady("database pool busy")
	}
	return httpapi.NotReady("database unreachable")
}

// Drain turns readiness to 503 ("draining") and waits delay, so a load
// balancer stops sending requests before the listeners close (D-drain). The
// process keeps serving meanwhile. skip ends the wait early (a second
// signal).
func (m *Main) Drain(delay time.Duration, skip <-chan struct{}) {
	m.draining.Store(true)
	if delay <= 0 {
		return
	}
	slog.Info("draining: readiness answers 503 before the listeners close", "for", delay)
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-skip:
	}
}

// Close stops accepting requests, lets running ones finish within
// SHUTDOWN_GRACE, cuts off any still running then (their database work is
// cancelled with their connections), and closes the database. Cutting off
// is logged, not an error: the process has stopped as configured.
func (m *Main) Close() error {
	m.draining.Store(true)
	grace := m.Config.ShutdownGrace
	if grace <= 0 {
		grace = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var errs []error
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, srv := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := srv.Shutdown(ctx)
			if errors.Is(err, context.DeadlineExceeded) {
				slog.Warn("requests still running after the shutdown grace are cut off", "grace", grace)
				err = srv.Close()
			}
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if m.cancel != nil {
		m.cancel()
	}
	if m.IDP != nil {
		m.IDP.WaitBackground() // reset and unlock e-mails started by requests
	}
	if m.Store != nil {
		m.Store.Close()
	}
	return errors.Join(errs...)
}

// OpenStore opens the database of cfg (DATABASE_URL) with its pool budget.
func OpenStore(ctx context.Context, cfg Config) (*store.Store, error) {
	driver, dsn, err := cfg.Database()
	if err != nil {
		return nil, err
	}
	var conn store.Conn
	if driver == "postgres" {
		conn, err = postgres.Open(ctx, dsn, postgres.Options{MaxConns: int32(cfg.DBMaxConns),
			AcquireTimeout: cfg.DBAcquireTimeout, StatementTimeout: cfg.DBStatementTimeout})
	} else {
		conn, err = sqlite.Open(ctx, dsn)
	}
	if err != nil {
		return nil, err
	}
	return store.New(conn), nil
}

// metricsAddr is where the metrics listener listens.
func (m *Main) metricsAddr() string {
	if ln := m.Listeners[ListenerMetrics]; ln != nil {
		return ln.Addr().String()
	}
	return m.Config.MetricsAddr
}

// PrintBanner tells a person where everything is.
func (m *Main) PrintBanner(w io.Writer) {
	c := m.Config
	fmt.Fprintf(w, "\nPlatform is running (role %s, database %s)\n\n", c.Role, redactURL(c.DatabaseURL))
	if m.runs(RoleIDP) {
		fmt.Fprintf(w, "  Identity provider   %s   (discovery: %s/.well-known/openid-configuration)\n", c.IssuerURL, c.IssuerURL)
	}
	if m.runs(RoleConsole) {
		fmt.Fprintf(w, "  Console             %s/\n", c.ConsoleURL)
		if c.GraphQLPlayground {
			fmt.Fprintf(w, "  GraphQL playground  %s/graphql   (signs in through the console and sends your token)\n", c.ConsoleURL)
		}
	}
	if m.runs(RoleTenant) {
		fmt.Fprintf(w, "  Tenant web app      %s/\n", c.InstanceURL)
	}
	fmt.Fprintf(w, "  Health              /healthz  /readyz on each address\n")
	fmt.Fprintf(w, "  Metrics             http://%s/metrics   (this machine only unless METRICS_ADDR says otherwise)\n", m.metricsAddr())
	if m.devMailbox() {
		fmt.Fprintf(w, "  Development mailbox %s%s   (no SMTP_URL: e-mail stays here; opens on this machine only)\n", c.IssuerURL,
			mail.PathMailbox)
	} else if s := c.Mailer(); s != nil {
		fmt.Fprintf(w, "  E-mail              through %s\n", s.Describe())
	}
	if m.runs(RoleIDP) {
		fmt.Fprintf(w, "  Two-step set-up     %s%s (after signing in)\n", c.IssuerURL, idp.PathAccountMFA)
	}
	if c.SeedDemo {
		fmt.Fprintf(w, "\nDemo log-ins (password for all: %s)\n", DemoPassword)
		for _, u := range demoUsers {
			if u.note == "" {
				continue
			}
			fmt.Fprintf(w, "  %-28s %s\n", u.email, u.note)
		}
	}
	fmt.Fprintln(w)
}
