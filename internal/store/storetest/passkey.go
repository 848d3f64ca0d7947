package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

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
