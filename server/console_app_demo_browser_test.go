package main

import "testing"

// "Show database URI" works on the demo instance, as the demo data is
// seeded, for each role that holds resolve_database_uri (platform_admin,
// infra_ops); the roles without it are not offered the button. Step-up
// (D-step-up, TestBrowserConsoleAppStepUp) is off here: this is the demo's
// data, not the second factor, under test.
func TestBrowserConsoleAppDemoDatabaseURI(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.StepUpMaxAge = 0 })
	mustInternalUser(t, m, "1f0e0000-0000-4000-8000-00000000000a", "ivy@platform.example", "Ivy Infra", "infra_ops")
	mustInternalUser(t, m, "1f0e0000-0000-4000-8000-00000000000b", "rex@platform.example", "Rex Reader", "reader")
	axe := axeSource(t)
	for _, c := range []struct {
		email   string
		offered bool
	}{{"admin@platform.example", true}, {"ivy@platform.example", true}, {"rex@platform.example", false}} {
		t.Run(c.email, func(t *testing.T) {
			ctx := mustBrowser(t)
			appSignIn(t, ctx, m, c.email)
			run(t, ctx, open(m, "/dashboard/instances/"+DemoInstanceID, "Acme production"), waitShows(`main`, "Connection to the identity provider"))
			if !c.offered {
				if has(buttonsLike(ctx, "Show database URI"), "Show database URI") {
					t.Errorf("%s is offered the database URI", c.email)
				}
				return
			}
			run(t, ctx, clickText("Show database URI"), waitShows(`[data-testid="database-uri"]`, DemoInstanceDatabaseURI))
			axeCheck(t, ctx, axe, "database URI of the demo instance, "+c.email)
		})
	}
}
