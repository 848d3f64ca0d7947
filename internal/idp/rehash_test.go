package idp

import (
	"context"
	"net/http"
	"testing"
)

// A hash made with other parameters (here the 19 MiB, two-pass default of
// before D-argon2-params) still signs in and is replaced by one with the
// provider's parameters; a wrong password replaces nothing; the new hash
// signs in again and is not replaced a second time.
func TestPasswordRehashedOnSignIn(t *testing.T) {
	t.Parallel()
	// spec: R1-password-rehash
	ti := mustIDP(t)
	ctx := context.Background()
	older := PasswordParams{Memory: 128, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16}
	oldHash, err := HashPassword(goodPass, older)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ti.st.RehashPassword(ctx, userAlice, mustUserHash(t, ti, userAlice), oldHash); err != nil {
		t.Fatal(err)
	}

	b := ti.browser()
	_, page := b.get(ti.rp().authURL(newFlow()))
	resp, _ := b.submitLogin(ti.issuer, page, alice, "wrong horse battery")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong password: status %d", resp.StatusCode)
	}
	if h := mustUserHash(t, ti, userAlice); h != oldHash {
		t.Fatalf("a wrong password replaced the hash: %q", h)
	}

	ti.loginTokens(ti.rp(), alice) // fails the test unless it signs in
	newHash := mustUserHash(t, ti, userAlice)
	if newHash == oldHash || !hashedWith(newHash, ti.p.cfg.Password) || hashedWith(newHash, older) {
		t.Fatalf("after the sign-in the hash is %q; want one with the provider's parameters %+v", newHash, ti.p.cfg.Password)
	}
	if ok, err := VerifyPassword(goodPass, newHash); !ok || err != nil {
		t.Fatalf("the new hash does not verify the password: %v %v", ok, err)
	}

	ti.loginTokens(ti.rp(), alice)
	if h := mustUserHash(t, ti, userAlice); h != newHash {
		t.Fatalf("a hash with the provider's parameters was replaced again")
	}
}

func TestHashedWith(t *testing.T) {
	t.Parallel()
	h, err := HashPassword(goodPass, fastHash)
	if err != nil {
		t.Fatal(err)
	}
	other := fastHash
	other.KeyLen = 16
	for _, c := range []struct {
		phc  string
		p    PasswordParams
		want bool
	}{
		{h, fastHash, true},
		{h, other, false},
		{h, PasswordParams{Memory: 64, Time: 2, Threads: 1, KeyLen: 32}, false},
		{h, DefaultPasswordParams, false},
		{"", fastHash, false},
		{"$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", fastHash, false},
		{"$argon2id$v=19$m=64,t=1,p=1$c2FsdA$!!!", fastHash, false},
	} {
		if got := hashedWith(c.phc, c.p); got != c.want {
			t.Errorf("hashedWith(%q, %+v) = %v, want %v", c.phc, c.p, got, c.want)
		}
	}
}

func mustUserHash(t *testing.T, ti *testIDP, id string) string {
	t.Helper()
	u, err := ti.st.User(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.PasswordHash
}
