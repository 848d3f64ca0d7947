package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		want    func(Config) bool
		wantErr []string // every one must appear in the error
	}{
		{name: "OKDefaults", env: nil, want: func(c Config) bool {
			return c.Role == RoleAll && c.DatabaseURL == "sqlite:./data/platform.db" && c.SeedDemo && c.LogFormat == "text" &&
				c.EgressAllow == "" && c.EgressProviderLoopback && len(c.Egress().Allow) == 0 && len(c.ProviderEgress().Allow) == 2 &&
				c.MetricsAddr == "127.0.0.1:9090" &&
				c.DBMaxConns == 20 && c.RequestTimeout == 10*time.Second && c.UploadTimeout == 2*time.Minute
		}},
		{name: "OKMetricsLoopbackInProduction", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32)}, want: func(c Config) bool { return c.MetricsAddr == "127.0.0.1:9090" }},
		{name: "OKMetricsAddr", env: map[string]string{"METRICS_ADDR": "10.0.0.5:9100"}, want: func(c Config) bool { return c.MetricsAddr == "10.0.0.5:9100" }},
		{name: "ErrMetricsAddr", env: map[string]string{"METRICS_ADDR": "9090"}, wantErr: []string{"METRICS_ADDR"}},
		{name: "ErrMetricsOnPublicListener", env: map[string]string{"METRICS_ADDR": ":8081"}, wantErr: []string{"METRICS_ADDR must differ from CONSOLE_ADDR"}},
		{name: "ErrSecretsKeyRequired", env: map[string]string{"ROLE": "idp"}, wantErr: []string{"SECRETS_KEY is required"}},
		{name: "ErrSecretsKeyLength", env: map[string]string{"SECRETS_KEY": "c2hvcnQ="}, wantErr: []string{"exactly 32 bytes"}},
		{name: "OKProductionRole", env: map[string]string{"ROLE": "idp", "DATABASE_URL": "postgres://u:p@db/platform",
			"SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"ISSUER_URL":  "https://id.example.com"}, want: func(c Config) bool {
			return c.Role == RoleIDP && c.LogFormat == "json" && !c.SeedDemo && c.IssuerURL == "https://id.example.com" &&
				c.EgressAllow == "" && !c.EgressProviderLoopback && len(c.Egress().Allow) == 0 && len(c.ProviderEgress().Allow) == 0
		}},
		{name: "OKEgressAllowSetEmpty", env: map[string]string{"EGRESS_ALLOW": ""}, want: func(c Config) bool {
			return c.Role == RoleAll && c.EgressAllow == "" && !c.EgressProviderLoopback && len(c.Egress().Allow) == 0 &&
				len(c.ProviderEgress().Allow) == 0
		}},
		{name: "OKEgressAllowSetBlank", env: map[string]string{"EGRESS_ALLOW": "  "}, want: func(c Config) bool {
			return !c.EgressProviderLoopback && len(c.Egress().Allow) == 0 && len(c.ProviderEgress().Allow) == 0
		}},
		{name: "OKEgressAllowLoopbackExplicit", env: map[string]string{"EGRESS_ALLOW": "127.0.0.1"}, want: func(c Config) bool {
			w, p := c.Egress().Allow, c.ProviderEgress().Allow
			return !c.EgressProviderLoopback && len(w) == 1 && w[0].String() == "127.0.0.1/32" && len(p) == 1
		}},
		{name: "OKEgressAllow", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32), "EGRESS_ALLOW": "10.20.0.0/16, 192.168.5.1"}, want: func(c Config) bool {
			a := c.Egress().Allow
			return len(a) == 2 && a[0].String() == "10.20.0.0/16" && a[1].String() == "192.168.5.1/32"
		}},
		{name: "OKOverrides", env: map[string]string{"SEED_DEMO": "false", "LOG_LEVEL": "debug", "LOG_FORMAT": "json",
			"IDP_ADDR": "127.0.0.1:9000"}, want: func(c Config) bool {
			return !c.SeedDemo && c.LogLevel == "debug" && c.LogFormat == "json" && c.IDPAddr == "127.0.0.1:9000"
		}},
		{name: "OKSMTP", env: map[string]string{"SMTP_URL": "smtps://mailer:p%40ss@mail.example.com", "MAIL_FROM": "Acme <no-reply@acme.example>"},
			want: func(c Config) bool {
				return c.Mailer() != nil && c.Mailer().Describe() == "mail.example.com:465 (TLS)" && c.MailFrom == "Acme <no-reply@acme.example>"
			}},
		{name: "OKNoSMTPInDevelopment", env: nil, want: func(c Config) bool { return c.Mailer() == nil && c.MailFrom == devMailFrom }},
		// D-trusted-documents: on outside ROLE=all unless the playground is, never with it
		{name: "OKTrustedDocumentsOffInDevelopment", env: nil, want: func(c Config) bool {
			return !c.GraphQLTrustedDocuments && c.GraphQLPlayground && !c.GraphQLConsoleTokens
		}},
		{name: "OKTrustedDocumentsInProduction", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32)}, want: func(c Config) bool { return c.GraphQLTrustedDocuments }},
		{name: "OKTrustedDocumentsOffWithPlayground", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32), "GRAPHQL_PLAYGROUND": "true"}, want: func(c Config) bool { return !c.GraphQLTrustedDocuments }},
		{name: "OKTrustedDocumentsOffBehindRouter", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32), "GRAPHQL_TRUSTED_DOCUMENTS": "false"}, want: func(c Config) bool { return !c.GraphQLTrustedDocuments }},
		{name: "ErrTrustedDocumentsWithPlayground", env: map[string]string{"GRAPHQL_TRUSTED_DOCUMENTS": "true"},
			wantErr: []string{"GRAPHQL_TRUSTED_DOCUMENTS and GRAPHQL_PLAYGROUND"}},
		{name: "ErrTrustedDocumentsValue", env: map[string]string{"GRAPHQL_TRUSTED_DOCUMENTS": "sometimes"}, wantErr: []string{"GRAPHQL_TRUSTED_DOCUMENTS must be true or false"}},
		{name: "OKConsoleTokens", env: map[string]string{"GRAPHQL_CONSOLE_TOKENS": "true"}, want: func(c Config) bool { return c.GraphQLConsoleTokens }},
		{name: "ErrSMTPURL", env: map[string]string{"SMTP_URL": "mail.example.com:587"}, wantErr: []string{"SMTP_URL"}},
		{name: "ErrSMTPPlainOutsideLoopback", env: map[string]string{"SMTP_URL": "smtp://mail.example.com:25?tls=none"},
			wantErr: []string{"SMTP_URL", "loopback"}},
		{name: "ErrMailFromRequired", env: map[string]string{"ROLE": "idp", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"SMTP_URL": "smtp://mail.example.com"}, wantErr: []string{"MAIL_FROM is required"}},
		{name: "ErrMailFrom", env: map[string]string{"MAIL_FROM": "not an address"}, wantErr: []string{"MAIL_FROM"}},
		{name: "ErrRole", env: map[string]string{"ROLE": "web"}, wantErr: []string{`ROLE "web"`}},
		{name: "ErrDatabase", env: map[string]string{"DATABASE_URL": "mysql://x"}, wantErr: []string{"DATABASE_URL must start with"}},
		{name: "ErrEmptySQLitePath", env: map[string]string{"DATABASE_URL": "sqlite:"}, wantErr: []string{"needs a file path"}},
		{name: "ErrHTTPIssuerOutsideLocalhost", env: map[string]string{"ISSUER_URL": "http://id.example.com"},
			wantErr: []string{"ISSUER_URL", "must be https"}},
		{name: "ErrURLWithPath", env: map[string]string{"CONSOLE_URL": "https://c.example.com/app"}, wantErr: []string{"CONSOLE_URL", "bare origin"}},
		{name: "ErrRelativeURL", env: map[string]string{"INSTANCE_URL": "tenant.example.com"}, wantErr: []string{"INSTANCE_URL", "not an absolute URL"}},
		{name: "ErrAddr", env: map[string]string{"TENANT_ADDR": "8082"}, wantErr: []string{"TENANT_ADDR"}},
		{name: "ErrSameAddrs", env: map[string]string{"CONSOLE_ADDR": ":8080"}, wantErr: []string{"must differ"}},
		{name: "ErrSigningAlgorithm", env: map[string]string{"SIGNING_ALGORITHM": "HS256"}, wantErr: []string{"SIGNING_ALGORITHM"}},
		{name: "ErrLogLevel", env: map[string]string{"LOG_LEVEL": "loud"}, wantErr: []string{"LOG_LEVEL"}},
		{name: "ErrLogFormat", env: map[string]string{"LOG_FORMAT": "xml"}, wantErr: []string{"LOG_FORMAT"}},
		{name: "ErrEgressAllow", env: map[string]string{"EGRESS_ALLOW": "10.0.0.1/8,nope"},
			wantErr: []string{"EGRESS_ALLOW", `"10.0.0.1/8"`, "10.0.0.0/8?", `"nope"`}},
		{name: "OKTrustedProxies", env: map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7", "LOGIN_RATE_LIMIT": "0"},
			want: func(c Config) bool {
				p := c.Proxies()
				return len(p) == 2 && p[1].String() == "192.0.2.7/32" && c.LoginRateLimit == 0
			}},
		{name: "OKDrainDefaults", env: map[string]string{"ROLE": "tenant", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="},
			want: func(c Config) bool {
				return c.DrainDelay == 5*time.Second && c.ShutdownGrace == 20*time.Second && c.DBMaxConns == 20 && c.UploadConcurrency == 4
			}},
		{name: "OKDurations", env: map[string]string{"DRAIN_DELAY": "0", "SHUTDOWN_GRACE": "3s", "REFRESH_REUSE_GRACE": "0",
			"UPLOAD_CONCURRENCY": "2", "DB_MAX_CONNS": "7"}, want: func(c Config) bool {
			return c.DrainDelay == 0 && c.ShutdownGrace == 3*time.Second && c.RefreshReuseGrace == 0 && c.UploadConcurrency == 2 &&
				c.DBMaxConns == 7
		}},
		{name: "ErrDurations", env: map[string]string{"SHUTDOWN_GRACE": "soon", "REQUEST_TIMEOUT": "0", "UPLOAD_CONCURRENCY": "0"},
			wantErr: []string{"SHUTDOWN_GRACE", "REQUEST_TIMEOUT", "UPLOAD_CONCURRENCY"}},
		{name: "ErrTrustedProxies", env: map[string]string{"TRUSTED_PROXIES": "10.0.0.1/8,lb"},
			wantErr: []string{"TRUSTED_PROXIES", "10.0.0.0/8?", `"lb"`}},
		{name: "ErrLoginRateLimit", env: map[string]string{"LOGIN_RATE_LIMIT": "-1"}, wantErr: []string{"LOGIN_RATE_LIMIT"}},
		{name: "OKDNSServer", env: map[string]string{"DNS_SERVER": "[2001:db8::53]:53"},
			want: func(c Config) bool { return c.DNSServer == "[2001:db8::53]:53" && c.DomainProver().Resolver != nil }},
		{name: "OKNoDNSServer", env: map[string]string{},
			want: func(c Config) bool { return c.DNSServer == "" && c.DomainProver().Resolver == nil }},
		{name: "ErrDNSServerNoPort", env: map[string]string{"DNS_SERVER": "10.0.0.2"}, wantErr: []string{"DNS_SERVER", "host:port"}},
		{name: "ErrDNSServerPort", env: map[string]string{"DNS_SERVER": "dns.internal:99999"}, wantErr: []string{"DNS_SERVER", "65535"}},
		{name: "ErrDNSServerHost", env: map[string]string{"DNS_SERVER": ":53"}, wantErr: []string{"DNS_SERVER", "must name a host"}},
		{name: "OKAuthorizeRateLimit", env: map[string]string{"AUTHORIZE_RATE_LIMIT": "0"},
			want: func(c Config) bool { return c.AuthorizeRateLimit == 0 && DefaultConfig().AuthorizeRateLimit == 120 }},
		{name: "ErrAuthorizeRateLimit", env: map[string]string{"AUTHORIZE_RATE_LIMIT": "many"}, wantErr: []string{"AUTHORIZE_RATE_LIMIT"}},
		{name: "OKAuditRetention", env: map[string]string{"AUDIT_RETENTION": "30d"},
			want: func(c Config) bool {
				return c.AuditRetention == 30*24*time.Hour && DefaultConfig().AuditRetention == 400*24*time.Hour
			}},
		{name: "OKAuditRetentionDuration", env: map[string]string{"AUDIT_RETENTION": "36h"},
			want: func(c Config) bool { return c.AuditRetention == 36*time.Hour }},
		{name: "OKAuditRetentionForever", env: map[string]string{"AUDIT_RETENTION": "0"},
			want: func(c Config) bool { return c.AuditRetention == 0 }},
		{name: "ErrAuditRetention", env: map[string]string{"AUDIT_RETENTION": "a year"}, wantErr: []string{"AUDIT_RETENTION", "400d"}},
		{name: "ErrAuditRetentionShort", env: map[string]string{"AUDIT_RETENTION": "12h"}, wantErr: []string{"AUDIT_RETENTION", "at least a day"}},
		{name: "ErrAuditRetentionNegative", env: map[string]string{"AUDIT_RETENTION": "-5d"}, wantErr: []string{"AUDIT_RETENTION"}},
		{name: "OKMemoryLimitIDP", env: map[string]string{"ROLE": "idp", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="},
			want: func(c Config) bool {
				return c.MemoryLimitMiB == idpMemoryLimitMiB(runtime.GOMAXPROCS(0)) && idpMemoryLimitMiB(2) == 64 && DefaultConfig().MemoryLimitMiB == 0
			}},
		{name: "OKMemoryLimitOtherRoles", env: map[string]string{"ROLE": "console", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"CONSOLE_SERVICE_CLIENT_SECRET": strings.Repeat("s", 32)}, want: func(c Config) bool { return c.MemoryLimitMiB == 0 }},
		{name: "OKMemoryLimitSet", env: map[string]string{"MEMORY_LIMIT_MIB": "96"}, want: func(c Config) bool { return c.MemoryLimitMiB == 96 }},
		{name: "OKMemoryLimitOff", env: map[string]string{"ROLE": "idp", "SECRETS_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
			"MEMORY_LIMIT_MIB": "0"}, want: func(c Config) bool { return c.MemoryLimitMiB == 0 }},
		{name: "ErrMemoryLimitSmall", env: map[string]string{"MEMORY_LIMIT_MIB": "16"}, wantErr: []string{"MEMORY_LIMIT_MIB", "at least 32"}},
		{name: "ErrMemoryLimitWord", env: map[string]string{"MEMORY_LIMIT_MIB": "64MiB"}, wantErr: []string{"MEMORY_LIMIT_MIB"}},
		{name: "ErrSeedDemo", env: map[string]string{"SEED_DEMO": "maybe"}, wantErr: []string{"SEED_DEMO"}},
		{name: "ErrEveryProblemAtOnce", env: map[string]string{"ROLE": "x", "DATABASE_URL": "x", "LOG_FORMAT": "x", "ISSUER_URL": "x",
			"EGRESS_ALLOW": "x"}, wantErr: []string{"ROLE", "DATABASE_URL", "LOG_FORMAT", "ISSUER_URL", "EGRESS_ALLOW"}},
		{name: "ErrPasswordNotEchoed", env: map[string]string{"DATABASE_URL": "mysql://user:s3cret@db/x"}, wantErr: []string{"DATABASE_URL"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ConfigFromEnv(lookupIn(tc.env))
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if !tc.want(c) {
					t.Fatalf("config = %+v", c)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error echoes a password: %q", err)
			}
		})
	}
}

// lookupIn reads variables from env as os.LookupEnv reads the environment.
func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

// TestDescribeEgress: the start-up log names what each policy lets
// through beyond public addresses.
func TestDescribeEgress(t *testing.T) {
	t.Parallel()
	c, err := ConfigFromEnv(lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := describeEgress(c.Egress()); got != "public addresses only" {
		t.Errorf("webhooks by default: %q", got)
	}
	if got := describeEgress(c.ProviderEgress()); got != "public addresses and 127.0.0.0/8, ::1/128" {
		t.Errorf("identity provider by default: %q", got)
	}
}

// applyMemoryLimit sets MEMORY_LIMIT_MIB unless GOMEMLIMIT is set, and
// nothing for 0. Not parallel: the memory limit is the process's, and the
// test restores it.
func TestApplyMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	unset := func(string) (string, bool) { return "", false }
	if got := applyMemoryLimit(Config{MemoryLimitMiB: 0}, unset); got != 0 || debug.SetMemoryLimit(-1) != prev {
		t.Fatalf("no limit configured: set %d", got)
	}
	goSet := func(k string) (string, bool) { return "70MiB", k == "GOMEMLIMIT" }
	if got := applyMemoryLimit(Config{MemoryLimitMiB: 64}, goSet); got != 0 || debug.SetMemoryLimit(-1) != prev {
		t.Fatalf("with GOMEMLIMIT set the configured limit was applied: %d", got)
	}
	if got := applyMemoryLimit(Config{MemoryLimitMiB: 64}, unset); got != 64<<20 || debug.SetMemoryLimit(-1) != 64<<20 {
		t.Fatalf("limit = %d, runtime's %d; want 64 MiB", got, debug.SetMemoryLimit(-1))
	}
}
