package storetest

import (
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
