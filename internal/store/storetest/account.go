package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testAccountTokens: a link is found and spent once, only while unused and
// unexpired and for its own kind; a newer link of the same kind replaces
// the older one; deleting ends the open ones.
func testAccountTokens(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o1")
	mustUser(t, st, "u1", "o1", "u1@example.com")
	tok := &store.AccountToken{Hash: "h1", Kind: store.TokenInvitation, UserID: "u1", CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := st.CreateAccountToken(ctx, tok, true); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AccountToken(ctx, "h1", store.TokenReset, ts); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("other kind: %v", err)
	}
	if n, err := st.OpenAccountTokens(ctx, "u1", store.TokenInvitation, ts); err != nil || n != 1 {
		t.Fatalf("open: %d %v", n, err)
	}
	if _, err := st.AccountToken(ctx, "h1", store.TokenInvitation, ts.Add(time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("expired: %v", err)
	}
	got, err := st.UseAccountToken(ctx, "h1", store.TokenInvitation, ts.Add(time.Minute))
	if err != nil || got.UserID != "u1" || got.UsedAt == nil {
		t.Fatalf("use: %+v %v", got, err)
	}
	if _, err := st.UseAccountToken(ctx, "h1", store.TokenInvitation, ts.Add(time.Minute)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("second use: %v", err)
	}
	// A resent link replaces the open one.
	for _, h := range []string{"h2", "h3"} {
		if err := st.CreateAccountToken(ctx, &store.AccountToken{Hash: h, Kind: store.TokenInvitation, UserID: "u1", CreatedAt: ts,
			ExpiresAt: ts.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.AccountToken(ctx, "h2", store.TokenInvitation, ts); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("replaced link: %v", err)
	}
	if err := st.DeleteAccountTokens(ctx, "u1", store.TokenInvitation); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UseAccountToken(ctx, "h3", store.TokenInvitation, ts); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("deleted link: %v", err)
	}
	if err := st.DeleteExpiredAccountTokens(ctx, ts.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// testOutbox: a queued message is due, claimed by one caller, recorded; a
// sent message loses its body and leaves the mailbox.
func testOutbox(t *testing.T, st *store.Store) {
	e := &store.Email{ID: "m1", At: ts, Recipient: "a@example.com", Kind: "invitation", Subject: "Hi", BodySealed: []byte{1, 2, 3}}
	if err := st.QueueEmail(ctx, e); err != nil {
		t.Fatal(err)
	}
	due, err := st.DueEmails(ctx, ts, 10)
	if err != nil || len(due) != 1 || string(due[0].BodySealed) != "\x01\x02\x03" || !due[0].NextAttemptAt.Equal(ts) {
		t.Fatalf("due: %+v %v", due, err)
	}
	if won, err := st.ClaimEmail(ctx, "m1", ts, ts.Add(time.Minute)); err != nil || !won {
		t.Fatalf("claim: %v %v", won, err)
	}
	if won, err := st.ClaimEmail(ctx, "m1", ts, ts.Add(time.Minute)); err != nil || won {
		t.Fatalf("second claim: %v %v", won, err)
	}
	if box, err := st.Mailbox(ctx, 10); err != nil || len(box) != 1 {
		t.Fatalf("mailbox: %v %v", box, err)
	}
	sent := ts.Add(time.Second)
	e.Status, e.Attempts, e.SentAt, e.NextAttemptAt = store.EmailSent, 1, &sent, sent
	if err := st.RecordEmailAttempt(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := st.OutboxEmail(ctx, "m1")
	if err != nil || got.Status != store.EmailSent || got.BodySealed != nil || got.SentAt == nil || !got.SentAt.Equal(sent) {
		t.Fatalf("after sending: %+v %v", got, err)
	}
	if box, err := st.Mailbox(ctx, 10); err != nil || len(box) != 0 {
		t.Fatalf("mailbox after sending: %v %v", box, err)
	}
	log, _, err := st.EmailLog(ctx, store.EmailQuery{Scope: authz.Filter{All: true}})
	if err != nil || len(log) != 1 || log[0].Status != store.EmailSent {
		t.Fatalf("log: %+v %v", log, err)
	}
}

// testPasskeys: passkeys are rows of their user, found by credential id,
// renamed and removed only by that user; a counter advances once per
// value; a ceremony is taken once and not after it expires; the login
// policy keeps its passkey settings.
func testPasskeys(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o1")
	mustUser(t, st, "u1", "o1", "u1@example.com")
	mustUser(t, st, "u2", "o1", "u2@example.com")
	k := &store.Passkey{ID: "pk-1", UserID: "u1", CredentialID: []byte{0, 1, 2, 0xff}, Name: "Laptop",
		Credential: []byte(`{"id":"AAEC_w"}`), SignCount: 3, CreatedAt: ts}
	if err := st.CreatePasskey(ctx, k); err != nil {
		t.Fatal(err)
	}
	dup := *k
	dup.ID, dup.UserID = "pk-2", "u2"
	wantCode(t, st.CreatePasskey(ctx, &dup), platform.ECONFLICT) // a credential id belongs to one user
	if err := st.CreatePasskey(ctx, &store.Passkey{ID: "pk-3", UserID: "u1", CredentialID: []byte{9}, Name: "Phone",
		Credential: []byte(`{}`), CreatedAt: ts.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	got, err := st.PasskeyByCredentialID(ctx, []byte{0, 1, 2, 0xff})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "pk-1" || got.UserID != "u1" || got.Name != "Laptop" || got.SignCount != 3 || got.CloneWarning ||
		!bytes.Equal(got.Credential, k.Credential) || !got.CreatedAt.Equal(ts) || got.LastUsedAt != nil {
		t.Fatalf("passkey = %+v", got)
	}
	_, err = st.PasskeyByCredentialID(ctx, []byte{7})
	wantCode(t, err, platform.ENOTFOUND)

	wantCode(t, st.RenamePasskey(ctx, "u2", "pk-1", "Mine now"), platform.ENOTFOUND) // another user's passkey
	wantCode(t, st.DeletePasskey(ctx, "u2", "pk-1"), platform.ENOTFOUND)
	if err := st.RenamePasskey(ctx, "u1", "pk-1", "Work laptop"); err != nil {
		t.Fatal(err)
	}
	list, err := st.Passkeys(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "Work laptop" || list[1].ID != "pk-3" {
		t.Fatalf("passkeys = %+v", list)
	}

	// the counter moves from the value read, once
	if ok, err := st.UsePasskey(ctx, "pk-1", 3, 4, []byte(`{"n":4}`), ts.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("use = %v %v", ok, err)
	}
	if ok, err := st.UsePasskey(ctx, "pk-1", 3, 5, []byte(`{"n":5}`), ts.Add(time.Minute)); err != nil || ok {
		t.Fatalf("second use from the same counter = %v %v, want false", ok, err)
	}
	got, _ = st.PasskeyByCredentialID(ctx, []byte{0, 1, 2, 0xff})
	if got.SignCount != 4 || string(got.Credential) != `{"n":4}` || got.LastUsedAt == nil || !got.LastUsedAt.Equal(ts.Add(time.Minute)) {
		t.Fatalf("after use: %+v", got)
	}
	if err := st.FlagClonedPasskey(ctx, "pk-1"); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.UsePasskey(ctx, "pk-1", 4, 9, []byte(`{}`), ts); err != nil || ok {
		t.Fatalf("use of a flagged passkey = %v %v, want false", ok, err)
	}
	if got, _ = st.PasskeyByCredentialID(ctx, []byte{0, 1, 2, 0xff}); !got.CloneWarning {
		t.Fatal("clone warning not kept")
	}
	if err := st.DeletePasskey(ctx, "u1", "pk-1"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteUser(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if list, _ := st.Passkeys(ctx, "u1"); len(list) != 0 { // the remaining passkey goes with its user
		t.Fatalf("passkeys of a deleted user: %+v", list)
	}

	// ceremonies: taken once, never after expiry, replaced per owner and purpose
	if err := st.PutCeremony(ctx, "ar:1", "login", []byte(`{"challenge":"a"}`), ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := st.PutCeremony(ctx, "ar:1", "login", []byte(`{"challenge":"b"}`), ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	data, err := st.TakeCeremony(ctx, "ar:1", "login", ts)
	if err != nil || string(data) != `{"challenge":"b"}` {
		t.Fatalf("take = %q %v", data, err)
	}
	_, err = st.TakeCeremony(ctx, "ar:1", "login", ts)
	wantCode(t, err, platform.ENOTFOUND)
	if err := st.PutCeremony(ctx, "ar:2", "mfa", []byte(`{}`), ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = st.TakeCeremony(ctx, "ar:2", "login", ts)
	wantCode(t, err, platform.ENOTFOUND) // another purpose
	_, err = st.TakeCeremony(ctx, "ar:2", "mfa", ts.Add(time.Minute))
	wantCode(t, err, platform.ENOTFOUND) // expired
	if err := st.DeleteExpiredCeremonies(ctx, ts.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}

	// the policy keeps its passkey settings; required needs allowed
	p := platform.DefaultLoginPolicy("o1")
	if p.PasskeyAllowed || p.PasskeyRequired {
		t.Fatalf("default policy allows passkeys: %+v", p)
	}
	p.PasskeyAllowed, p.PasskeyRequired, p.UpdatedAt = true, true, ts
	if err := st.PutLoginPolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	back, err := st.LoginPolicy(ctx, "o1")
	if err != nil || !back.PasskeyAllowed || !back.PasskeyRequired {
		t.Fatalf("policy = %+v %v", back, err)
	}
	p.PasskeyAllowed = false
	if err := st.PutLoginPolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	if back, _ = st.LoginPolicy(ctx, "o1"); back.PasskeyAllowed || back.PasskeyRequired {
		t.Fatalf("required without allowed stored: %+v", back)
	}
	p.PasskeyRequired = true
	wantCode(t, p.Validate(0), platform.EINVALID)
}

// testLanguages: a user's saved language (D-languages) is kept and cleared,
// ENOTFOUND for no user; a login transaction keeps its ui_locales.
func testLanguages(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o1")
	mustUser(t, st, "u1", "o1", "lang@example.com")
	if u, err := st.User(ctx, "u1"); err != nil || u.Locale != "" {
		t.Fatalf("a new user's locale = %+v, %v", u, err)
	}
	for _, want := range []string{"ja", ""} {
		if err := st.SetUserLocale(ctx, "u1", want, ts); err != nil {
			t.Fatal(err)
		}
		if u, err := st.User(ctx, "u1"); err != nil || u.Locale != want {
			t.Fatalf("locale = %q, %v; want %q", u.Locale, err, want)
		}
	}
	wantCode(t, st.SetUserLocale(ctx, "nobody", "de", ts), platform.ENOTFOUND)
	a := newAuthRequest("ar-lang")
	a.UILocales = "fr"
	if err := st.CreateAuthRequest(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, err := st.AuthRequest(ctx, "ar-lang", ts); err != nil || got.UILocales != "fr" {
		t.Fatalf("auth request ui_locales = %+v, %v", got, err)
	}
}
