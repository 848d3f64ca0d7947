package adminhttp

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

const testIssuer = "https://idp.example"

var invitationLink = regexp.MustCompile(regexp.QuoteMeta(testIssuer+mail.PathInvitation) + `\?token=([A-Za-z0-9_-]+)`)

// invitationTokens returns the tokens of the invitation messages to an
// address in the outbox, oldest first.
func invitationTokens(t *testing.T, e *env, sl *secrets.Sealer, to string) []string {
	t.Helper()
	var out []string
	for _, b := range outbox(t, e, sl, to, mail.KindInvitation) {
		m := invitationLink.FindStringSubmatch(b.Text)
		if m == nil || !strings.Contains(b.HTML, m[0]) {
			t.Fatalf("no invitation link in %q", b.Text)
		}
		out = append(out, m[1])
	}
	return out
}

// outbox answers the messages of kind to an address in the outbox, oldest first.
func outbox(t *testing.T, e *env, sl *secrets.Sealer, to, kind string) []mail.Body {
	t.Helper()
	box, err := e.st.Mailbox(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []mail.Body
	for i := len(box) - 1; i >= 0; i-- {
		if box[i].Recipient != to || box[i].Kind != kind {
			continue
		}
		b, err := mail.Open(sl, &box[i])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// mailEnv is newEnv whose messages can be opened (its sealer) and whose
// links open at testIssuer, with a customer and its owner.
func mailEnv(t *testing.T) (e *env, sl *secrets.Sealer, cust, owner string) {
	t.Helper()
	sl, err := secrets.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	e = newEnv(t, admin.WithIssuer(testIssuer), admin.WithSealer(sl))
	cust = e.mustCustomer()
	return e, sl, cust, e.mustUser(authz.Owner, cust)
}

// Inviting a user writes the user and the invitation message together;
// the message carries a link whose token only the message knows (the
// store keeps its hash). Resending replaces the link, revoking ends it,
// and neither works once the invitation was accepted.
func TestInvitationResendRevoke(t *testing.T) {
	t.Parallel()
	e, sl, cust, owner := mailEnv(t)
	ctx := context.Background()
	resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", map[string]any{"email": "Dora@Example.com", "name": "Dora"})
	if resp.Status != http.StatusCreated {
		t.Fatalf("invite: %d %s", resp.Status, resp.Body)
	}
	id := resp.json(t)["id"].(string)
	first := invitationTokens(t, e, sl, "dora@example.com")
	if len(first) != 1 {
		t.Fatalf("%d invitation messages", len(first))
	}
	now := time.Now()
	if _, err := e.st.AccountToken(ctx, first[0], store.TokenInvitation, now); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatal("the raw token is stored")
	}
	if tok, err := e.st.AccountToken(ctx, mail.TokenHash(first[0]), store.TokenInvitation, now); err != nil || tok.UserID != id ||
		tok.ExpiresAt.Sub(tok.CreatedAt) != mail.InvitationLifetime {
		t.Fatalf("stored link: %+v %v", tok, err)
	}
	log := e.do(owner, http.MethodGet, "/email-log", nil)
	if log.Status != http.StatusOK || !strings.Contains(string(log.Body), `"status":"queued"`) {
		t.Fatalf("e-mail log: %d %s", log.Status, log.Body)
	}

	if resp := e.do(owner, http.MethodPost, "/users/"+id+"/resend-invitation", nil); resp.Status != http.StatusOK {
		t.Fatalf("resend: %d %s", resp.Status, resp.Body)
	}
	both := invitationTokens(t, e, sl, "dora@example.com")
	if len(both) != 2 || both[0] != first[0] {
		t.Fatalf("after resend: %v", both)
	}
	if _, err := e.st.AccountToken(ctx, mail.TokenHash(first[0]), store.TokenInvitation, now); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatal("the replaced link still works")
	}
	if _, err := e.st.AccountToken(ctx, mail.TokenHash(both[1]), store.TokenInvitation, now); err != nil {
		t.Fatalf("the resent link: %v", err)
	}

	// accepted: neither applies any more
	if err := e.st.SetPassword(ctx, id, "$argon2id$x"); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"resend-invitation", "revoke-invitation"} {
		if resp := e.do(owner, http.MethodPost, "/users/"+id+"/"+op, nil); resp.Status != http.StatusBadRequest {
			t.Fatalf("%s after acceptance: %d %s", op, resp.Status, resp.Body)
		}
	}
	if resp := e.do(owner, http.MethodGet, "/users/"+id, nil); resp.Status != http.StatusOK || resp.json(t)["status"] != "active" {
		t.Fatalf("the accepted user: %d %s", resp.Status, resp.Body)
	}
}

// Revoking a pending invitation removes the account, which has no
// credential yet, with its link (D-support-tools): the user is gone, the
// link does not open, and the address can be invited again.
// spec: D-support-tools
func TestInvitationRevokeRemovesPendingAccount(t *testing.T) {
	t.Parallel()
	e, sl, cust, owner := mailEnv(t)
	ctx := context.Background()
	invite := func() string {
		resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", map[string]any{"email": "rita@example.com", "name": "Rita"})
		if resp.Status != http.StatusCreated || resp.json(t)["status"] != "invited" {
			t.Fatalf("invite: %d %s", resp.Status, resp.Body)
		}
		return resp.json(t)["id"].(string)
	}
	id := invite()
	link := invitationTokens(t, e, sl, "rita@example.com")[0]
	if resp := e.do(owner, http.MethodPost, "/users/"+id+"/revoke-invitation", nil); resp.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(owner, http.MethodGet, "/users/"+id, nil); resp.Status != http.StatusNotFound {
		t.Fatalf("the revoked user: %d %s", resp.Status, resp.Body)
	}
	if _, err := e.st.AccountToken(ctx, mail.TokenHash(link), store.TokenInvitation, time.Now()); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("the revoked link: %v", err)
	}
	if resp := e.do(owner, http.MethodPost, "/users/"+id+"/revoke-invitation", nil); resp.Status != http.StatusNotFound {
		t.Fatalf("revoked twice: %d %s", resp.Status, resp.Body)
	}
	if again := invite(); again == id {
		t.Fatal("the address was invited again as the removed user")
	}
}

// An invitation that cannot be created (the address is taken) leaves no
// message behind: the user and the message are written together or not at all.
func TestInvitationNoPartialState(t *testing.T) {
	t.Parallel()
	e, sl, cust, owner := mailEnv(t)
	body := map[string]any{"email": "eve@example.com", "name": "Eve"}
	if resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", body); resp.Status != http.StatusCreated {
		t.Fatalf("invite: %d", resp.Status)
	}
	if resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", body); resp.Status != http.StatusConflict {
		t.Fatalf("second invite: %d %s", resp.Status, resp.Body)
	}
	if n := len(invitationTokens(t, e, sl, "eve@example.com")); n != 1 {
		t.Fatalf("%d messages after a refused second invitation", n)
	}
}

// Unlocking is for those who may suspend the user: platform_admin and the
// customer's owner and admin (and the internal roles acting for customers);
// the customer's billing, viewer and member roles, and another customer's
// admin, are refused and the lock stays.
// attack: unlock-unauthorized-role
func TestAttackUnlockByUnauthorizedRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	cust, other := e.mustCustomer(), e.mustCustomer()
	locked := e.mustUser(authz.Member, cust)
	lock := func() {
		if _, err := e.st.RecordLoginFailure(ctx, locked, 1, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	isLocked := func() bool {
		u, err := e.st.User(ctx, locked)
		if err != nil {
			t.Fatal(err)
		}
		return u.LockedUntil.After(time.Now())
	}
	lock()
	for _, caller := range []string{e.mustUser(authz.Billing, cust), e.mustUser(authz.Viewer, cust), e.mustUser(authz.Member, cust),
		e.mustUser(authz.Admin, other), e.mustUser(authz.Reader, "")} {
		resp := e.do(caller, http.MethodPost, "/users/"+locked+"/unlock", nil)
		if resp.Status != http.StatusForbidden && resp.Status != http.StatusNotFound {
			t.Fatalf("unlock by %s: %d %s", caller, resp.Status, resp.Body)
		}
		if !isLocked() {
			t.Fatalf("unlock by %s lifted the lock", caller)
		}
	}
	for _, caller := range []string{e.mustUser(authz.Admin, cust), e.mustUser(authz.Owner, cust), e.mustUser(authz.PlatformAdmin, "")} {
		lock()
		if resp := e.do(caller, http.MethodPost, "/users/"+locked+"/unlock", nil); resp.Status != http.StatusOK {
			t.Fatalf("unlock by %s: %d %s", caller, resp.Status, resp.Body)
		}
		if isLocked() {
			t.Fatalf("unlock by %s left the lock", caller)
		}
	}
	// internal users: platform_admin only
	staff := e.mustUser(authz.AccountManager, "")
	if _, err := e.st.RecordLoginFailure(ctx, staff, 1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if resp := e.do(e.mustUser(authz.AccountManager, ""), http.MethodPost, "/internal-users/"+staff+"/unlock", nil); resp.Status != http.StatusForbidden {
		t.Fatalf("internal unlock by account_manager: %d", resp.Status)
	}
	if resp := e.do(e.mustUser(authz.PlatformAdmin, ""), http.MethodPost, "/internal-users/"+staff+"/unlock", nil); resp.Status != http.StatusOK {
		t.Fatalf("internal unlock by platform_admin: %d", resp.Status)
	}
}
