package main

import (
	"context"
	"net/http/cookiejar"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/store"
)

// The support tools of the console app in Chromium (D-support-tools), per
// role: platform_admin helps a customer's user and an internal user, a
// customer's admin helps its own users but not the owner, and a role that
// only reads sees the account and its sessions with nothing to press; axe
// on every page and dialog visited.

const bobID = "2b7e4d10-0000-4000-8000-000000000003"

// lockOut locks userID out as failed sign-ins do, for an hour.
func lockOut(t *testing.T, m *Main, userID string) {
	t.Helper()
	if _, err := m.Store.RecordLoginFailure(context.Background(), userID, 1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// withAuthenticator gives userID a confirmed authenticator app.
func withAuthenticator(t *testing.T, m *Main, userID string) {
	t.Helper()
	ctx := context.Background()
	if err := m.Store.PutTOTP(ctx, &store.TOTPFactor{UserID: userID, SecretSealed: []byte("sealed"), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ok, err := m.Store.UseTOTPStep(ctx, userID, 1); err != nil || !ok {
		t.Fatal(ok, err)
	}
}

// firefoxSession opens a browser session of userID as Firefox on Linux
// would have signed in, from 198.51.100.23.
func firefoxSession(t *testing.T, m *Main, userID, sid string) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := m.Store.CreateSession(context.Background(), &store.Session{IDHash: "hash-" + sid, SID: sid, UserID: userID,
		AuthTime: now.Add(-time.Hour), AMR: []string{"pwd", "otp", "mfa"}, CreatedAt: now.Add(-time.Hour), ExpiresAt: now.Add(11 * time.Hour),
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", Address: "198.51.100.23"}); err != nil {
		t.Fatal(err)
	}
}

// sessionsOf answers the sids of userID's browser sessions.
func sessionsOf(t *testing.T, m *Main, userID string) []string {
	t.Helper()
	page, _, err := m.Store.UserSessionPage(context.Background(), userID, time.Now(), store.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range page {
		out = append(out, s.SID)
	}
	return out
}

// supportButtons are the buttons of the support tools a page may offer (a
// session's own is "Sign out <its browser>"; the header's "Sign out" is the
// caller's).
var supportButtons = []string{"Unlock", "Reset second factor", "Resend invitation", "Revoke invitation", "Sign out everywhere", "Sign out "}

func offeredSupport(ctx context.Context) []string { return buttonsLike(ctx, supportButtons...) }

// platform_admin finds a locked user of Acme in the customer's users,
// opens the user's page, unlocks the user, signs one of its browsers out,
// resets its second factor (the user is mailed and signed out everywhere);
// resends and revokes an invitation; and unlocks an internal user.
func TestBrowserConsoleAppSupportPlatformAdmin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx0 := context.Background()
	const lenaID, lena = "2b7e4d10-0000-4000-8000-0000000000d1", "lena@acme.example"
	mustConsoleUser(t, m, lenaID, DemoAcmeOrgID, lena, "Lena Lorenz", "member", DemoAcmeCustomerID)
	jar, _ := cookiejar.New(nil)
	demoLoginIn(t, m, jar, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", lena) // a sign-in of Lena's own (Go's HTTP client)
	lockOut(t, m, lenaID)
	withAuthenticator(t, m, lenaID)
	firefoxSession(t, m, lenaID, "sid-lena-firefox")

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=users", "Acme Construction"),
		rowHas("users-table", lena, "locked"), rowHas("users-table", "bob@acme.example", "active"))
	run(t, ctx, clickText("Lena Lorenz"), waitShows(`#page-title`, "Lena Lorenz"), waitShows(`[data-testid="user-status"]`, "locked"),
		waitShows(`[data-testid="second-factor"]`, "authenticator app"), rowHas("sessions-table", "Firefox on Linux", "198.51.100.23", "password and one-time code"),
		rowHas("sessions-table", "Go-http-client", "127.0.0.1"))
	axeCheck(t, ctx, axe, "a user's page")
	_ = chromedp.Run(ctx, shot(t, ctx, "app-user-support"))

	run(t, ctx, press("Unlock"), waitShows(`[data-testid="done"]`, "is unlocked"), waitShows(`[data-testid="user-status"]`, "active"),
		waitShows(`[data-testid="failed-sign-ins"]`, "0"))
	if u, err := m.Store.User(ctx0, lenaID); err != nil || !u.LockedUntil.IsZero() || u.FailedLogins != 0 {
		t.Fatalf("Lena after unlock: %+v %v", u, err)
	}
	// the Firefox session signed out, the other stays
	run(t, ctx, clickLabel("Sign out Firefox on Linux signed in "+sessionTime(t, m, lenaID, "sid-lena-firefox")),
		waitShows(`[data-testid="done"]`, "signed out"), noRowHas("sessions-table", "Firefox"), rowHas("sessions-table", "Go-http-client"))
	if got := sessionsOf(t, m, lenaID); len(got) != 1 || got[0] == "sid-lena-firefox" {
		t.Fatalf("Lena's sessions after signing one out: %v", got)
	}
	// the second factor reset, confirmed by the address
	run(t, ctx, press("Reset second factor"), waitShows(`[role="dialog"]`, "authenticator app"))
	axeCheck(t, ctx, axe, "second factor reset")
	run(t, ctx, confirmTyped("user", lena, "Reset the second factor of user"), waitShows(`[data-testid="done"]`, "was reset"),
		waitShows(`[data-testid="second-factor"]`, "none"), waitShows(`main`, "No browser is signed in"))
	if got := sessionsOf(t, m, lenaID); len(got) != 0 {
		t.Fatalf("Lena's sessions after the reset: %v", got)
	}
	if box, _ := m.Store.Mailbox(ctx0, 50); !hasMail(box, lena, mail.KindSecondFactorReset) {
		t.Fatal("Lena was not mailed about the reset")
	}

	// an invitation: resent, then revoked (the account goes)
	const ivoID, ivo = "2b7e4d10-0000-4000-8000-0000000000d2", "ivo@acme.example"
	invited(t, m, ivoID, DemoAcmeOrgID, ivo, DemoAcmeCustomerID)
	run(t, ctx, open(m, "/dashboard/customers/"+DemoAcmeCustomerID+"?tab=users", "Acme Construction"), rowHas("users-table", ivo, "invited"),
		clickText("Ivo Invited"), waitShows(`[data-testid="user-status"]`, "invited"), press("Resend invitation"),
		waitShows(`[data-testid="done"]`, "A new invitation was sent"))
	if box, _ := m.Store.Mailbox(ctx0, 50); !hasMail(box, ivo, mail.KindInvitation) {
		t.Fatal("the resent invitation is not in the outbox")
	}
	run(t, ctx, press("Revoke invitation"), waitShows(`[role="dialog"]`, "removed"))
	axeCheck(t, ctx, axe, "revoke invitation")
	run(t, ctx, confirmTyped("user", ivo, "Revoke the invitation of user"), waitShows(`#page-title`, "Acme Construction"),
		rowHas("users-table", lena), noRowHas("users-table", ivo))
	if _, err := m.Store.User(ctx0, ivoID); err == nil {
		t.Fatal("the revoked account stayed")
	}

	// an internal user, locked: unlocked from its page
	const staffID = "2b7e4d10-0000-4000-8000-0000000000d3"
	mustInternalUser(t, m, staffID, "sam@platform.example", "Sam Staff", "reader")
	lockOut(t, m, staffID)
	run(t, ctx, open(m, "/dashboard/internal-users", "Internal users"), rowHas("internal-users-table", "sam@platform.example", "locked"),
		clickText("Sam Staff"), waitShows(`[data-testid="user-status"]`, "locked"), waitShows(`main`, "No browser is signed in"))
	axeCheck(t, ctx, axe, "an internal user's page")
	run(t, ctx, press("Unlock"), waitShows(`[data-testid="user-status"]`, "active"))
}

// sessionTime is how the page writes a session's sign-in time.
func sessionTime(t *testing.T, m *Main, userID, sid string) string {
	t.Helper()
	page, _, err := m.Store.UserSessionPage(context.Background(), userID, time.Now(), store.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range page {
		if s.SID == sid {
			return s.AuthTime.UTC().Format("2006-01-02 15:04") + " UTC"
		}
	}
	t.Fatalf("no session %s", sid)
	return ""
}

func hasMail(box []store.Email, to, kind string) bool {
	for _, e := range box {
		if e.Recipient == to && e.Kind == kind {
			return true
		}
	}
	return false
}

// invited adds a user of customerID whose invitation is pending: no password yet.
func invited(t *testing.T, m *Main, id, orgID, email, customerID string) {
	t.Helper()
	u := mustConsoleUser(t, m, id, orgID, email, "Ivo Invited", "member", customerID)
	if _, err := m.Store.Conn().Exec(context.Background(), `UPDATE users SET password_hash = '' WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
}

// A customer's admin (a customer role) finds Bob locked in the portal's
// users, unlocks him, signs him out everywhere and resets his second
// factor; on the owner's page the same admin is offered none of that
// (D-owner-protect), and on its own page no reset of its own second factor.
func TestBrowserConsoleAppSupportCustomerAdmin(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	const adminID, adminEmail = "2b7e4d10-0000-4000-8000-0000000000d4", "ada@acme.example"
	mustConsoleUser(t, m, adminID, DemoAcmeOrgID, adminEmail, "Ada Acme", "admin", DemoAcmeCustomerID)
	jar, _ := cookiejar.New(nil)
	demoLoginIn(t, m, jar, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	lockOut(t, m, bobID)
	withAuthenticator(t, m, bobID)
	const aliceID = "2b7e4d10-0000-4000-8000-000000000002"
	lockOut(t, m, aliceID)
	withAuthenticator(t, m, aliceID)

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, adminEmail)
	withAuthenticator(t, m, adminID) // after the sign-in, which then asks no code
	run(t, ctx, open(m, "/portal/users", "Users"), rowHas("users-table", "bob@acme.example", "locked"), clickText("Bob Brandt"),
		waitShows(`[data-testid="user-status"]`, "locked"), rowHas("sessions-table", "Go-http-client"))
	axeCheck(t, ctx, axe, "a user's page in the portal")
	run(t, ctx, press("Unlock"), waitShows(`[data-testid="user-status"]`, "active"))
	run(t, ctx, press("Sign out everywhere"), waitShows(`[role="dialog"]`, "signs in again"))
	axeCheck(t, ctx, axe, "sign out everywhere")
	run(t, ctx, confirmTyped("user", "bob@acme.example", "End every session of user"), waitShows(`main`, "No browser is signed in"))
	if got := sessionsOf(t, m, bobID); len(got) != 0 {
		t.Fatalf("Bob's sessions after signing out everywhere: %v", got)
	}
	run(t, ctx, press("Reset second factor"), confirmTyped("user", "bob@acme.example", "Reset the second factor of user"),
		waitShows(`[data-testid="second-factor"]`, "none"))

	// the owner: shown, not touched
	run(t, ctx, open(m, "/portal/users/"+aliceID, "Alice Anders"), waitShows(`[data-testid="user-status"]`, "locked"),
		waitShows(`[data-testid="second-factor"]`, "authenticator app"), waitShows(`main`, "Sessions"))
	if got := offeredSupport(ctx); len(got) > 0 {
		t.Errorf("the admin is offered %v on the owner's page", got)
	}
	// its own page: no reset of its own second factor
	run(t, ctx, open(m, "/portal/users/"+adminID, "Ada Acme"), waitShows(`[data-testid="second-factor"]`, "authenticator app"))
	if bs, _ := buttons(ctx); has(bs, "Reset second factor") {
		t.Error("the admin is offered to reset its own second factor")
	}
}

// A reader (an internal role that reads users) sees a locked user's status
// and sessions and is offered nothing to press; a viewer of the customer
// has no users' pages at all.
func TestBrowserConsoleAppSupportReadOnly(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	mustInternalUser(t, m, "2b7e4d10-0000-4000-8000-0000000000d5", "rhea@platform.example", "Rhea Reader", "reader")
	lockOut(t, m, bobID)
	withAuthenticator(t, m, bobID)
	firefoxSession(t, m, bobID, "sid-bob-firefox")
	const pendingID = "2b7e4d10-0000-4000-8000-0000000000d6"
	invited(t, m, pendingID, DemoAcmeOrgID, "ivo@acme.example", DemoAcmeCustomerID)

	t.Run("reader", func(t *testing.T) {
		ctx := mustBrowser(t)
		appSignIn(t, ctx, m, "rhea@platform.example")
		for _, p := range []struct{ path, heading, status string }{
			{"/dashboard/users/" + bobID, "Bob Brandt", "locked"}, {"/dashboard/users/" + pendingID, "Ivo Invited", "invited"},
		} {
			run(t, ctx, open(m, p.path, p.heading), waitShows(`[data-testid="user-status"]`, p.status), waitShows(`main`, "Sessions"))
			if p.status == "locked" {
				run(t, ctx, rowHas("sessions-table", "Firefox on Linux", "198.51.100.23"))
			}
			if got := offeredSupport(ctx); len(got) > 0 {
				t.Errorf("the reader is offered %v on %s", got, p.path)
			}
			axeCheck(t, ctx, axe, "reader "+p.path)
		}
	})
	t.Run("viewer", func(t *testing.T) {
		ctx := mustBrowser(t)
		run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/", "dana@partner.example"), chromedp.WaitVisible(`#org-step`, chromedp.ByID),
			chromedp.Click(`//button[text()="Acme Construction"]`, chromedp.BySearch), providerPassword(DemoPassword),
			waitShows(`[data-testid="role"]`, "viewer"))
		run(t, ctx, open(m, "/portal/users/"+bobID, "Not available"))
		if got := offeredSupport(ctx); len(got) > 0 {
			t.Errorf("the viewer is offered %v", got)
		}
	})
	if got := sessionsOf(t, m, bobID); len(got) != 1 {
		t.Fatalf("Bob's sessions after the read-only visits: %v", got)
	}
}
